import HLSPackCore

/// What is reported when a key cannot be had: the key once
/// (`VerifyRules.keyUnavailable`), and each rendition's segments whose bytes
/// were therefore not checked, so that no check passes silently.
extension VerifyRules {
  public static let segmentNotVerifiable = VerifyRule(
    id: "segment.not-verifiable", severity: .should, source: "RFC 8216bis §4.4.4.4, §5", origin: .rfc8216bis, owner: .publisher,
    summary: "encrypted segments whose key could not be had were not decrypted: the checks of their bytes were not made"
  )
}

public enum KeyAvailabilityRules {
  /// The segments of one media playlist under one key URI whose key is missing.
  public struct Unverified: Sendable {
    public var keyURI: String
    public var method: String
    /// The line of the first key tag with this URI.
    public var line: Int
    public var segments: Int

    public init(keyURI: String, method: String, line: Int, segments: Int) {
      self.keyURI = keyURI
      self.method = method
      self.line = line
      self.segments = segments
    }
  }

  /// The checks a method's key is needed for.
  static func checks(_ method: String) -> String {
    switch method {
    case "AES-128": "decryption, PKCS#7 padding, the media structure and I-frame byte ranges"
    default: "sample decryption and the checks of the clear media"
    }
  }

  /// One finding per key URI of the media playlist `file`, in the order given.
  public static func findings(_ unverified: [Unverified], file: String) -> [Finding] {
    unverified.map {
      Finding(
        VerifyRules.segmentNotVerifiable, file: file, line: $0.line,
        detail:
          "\($0.segments) \($0.method) segment\($0.segments == 1 ? "" : "s") under key \($0.keyURI): \(checks($0.method)) not checked"
      )
    }
  }
}
