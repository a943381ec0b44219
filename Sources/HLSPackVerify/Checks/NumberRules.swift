import HLSPackCore

extension VerifyRules {
  public static let numberInvalid = VerifyRule(
    id: "playlist.number-invalid", severity: .must, source: "RFC 8216bis §4.2", origin: .rfc8216bis, owner: .packager,
    summary:
      "a numeric tag value or attribute is not of the type RFC 8216bis §4.2 defines (a decimal-integer from 0 to 2^64 − 1, a finite decimal-floating-point number, a decimal-resolution)"
  )
}

/// Every number a playlist writes, against the type its tag defines. The
/// values that rules of their own read (EXTINF, EXT-X-TARGETDURATION,
/// EXT-X-MEDIA-SEQUENCE, EXT-X-BYTERANGE, IV) are reported by those rules.
public enum NumberRules {
  /// Tags whose whole value is one number.
  static let values: [String: PlaylistNumber.Kind] = [
    "EXT-X-VERSION": .integer, "EXT-X-DISCONTINUITY-SEQUENCE": .integer, "EXT-X-BITRATE": .integer,
  ]

  /// Numeric attributes of attribute-list tags (RFC 8216bis §4.4).
  static let attributes: [String: [String: PlaylistNumber.Kind]] = [
    "EXT-X-STREAM-INF": [
      "BANDWIDTH": .integer, "AVERAGE-BANDWIDTH": .integer, "RESOLUTION": .resolution, "FRAME-RATE": .float,
      "SCORE": .float,
    ],
    "EXT-X-I-FRAME-STREAM-INF": [
      "BANDWIDTH": .integer, "AVERAGE-BANDWIDTH": .integer, "RESOLUTION": .resolution, "SCORE": .float,
    ],
    "EXT-X-START": ["TIME-OFFSET": .signedFloat],
    "EXT-X-MAP": ["BYTERANGE": .byteRange],
    "EXT-X-PART-INF": ["PART-TARGET": .float],
    "EXT-X-SERVER-CONTROL": ["CAN-SKIP-UNTIL": .float, "HOLD-BACK": .float, "PART-HOLD-BACK": .float],
    "EXT-X-PART": ["DURATION": .float, "BYTERANGE": .byteRange],
    "EXT-X-SKIP": ["SKIPPED-SEGMENTS": .integer],
    "EXT-X-PRELOAD-HINT": ["BYTERANGE-START": .integer, "BYTERANGE-LENGTH": .integer],
    "EXT-X-RENDITION-REPORT": ["LAST-MSN": .integer, "LAST-PART": .integer],
    "EXT-X-DATERANGE": ["DURATION": .float, "PLANNED-DURATION": .float],
  ]

  /// Attributes whose value is a quoted-string holding a number; the others are unquoted.
  static let quoted: Set<String> = ["EXT-X-MAP/BYTERANGE", "EXT-X-PART/BYTERANGE"]

  public static func check(_ text: PlaylistText, file: String) -> [Finding] {
    var findings: [Finding] = []
    for tag in text.tags {
      func invalid(_ detail: String) {
        findings.append(Finding(VerifyRules.numberInvalid, file: file, line: tag.line, detail: detail))
      }
      if let kind = values[tag.name], let problem = PlaylistNumber.problem(tag.value, kind: kind) {
        invalid("#\(tag.name): \(problem)")
      }
      guard let numeric = attributes[tag.name] else { continue }
      for attribute in tag.attributes {
        guard let kind = numeric[attribute.name] else { continue }
        let name = "\(tag.name) \(attribute.name)"
        if attribute.quoted != quoted.contains("\(tag.name)/\(attribute.name)") {
          invalid("\(name) is \(attribute.quoted ? "quoted" : "not quoted"), unlike its type")
        } else if let problem = PlaylistNumber.problem(attribute.value, kind: kind) {
          invalid("\(name): \(problem)")
        }
      }
    }
    return findings
  }
}
