import HLSPackCore

/// EXT-X-STREAM-INF attributes that Apple's HLS Authoring Specification
/// requires beyond RFC 8216bis, which leaves them optional: without them a
/// client chooses variants on guesses (docs/conformance.md, Multivariant playlist).
extension VerifyRules {
  public static let variantAttributeMissing = VerifyRule(
    id: "multivariant.attribute-missing", severity: .must,
    source:
      "Apple HLS Authoring Specification, Playlists (AVERAGE-BANDWIDTH and CODECS on every variant; RESOLUTION and FRAME-RATE on video variants); RFC 8216bis §4.4.6.2",
    origin: .apple, owner: .packager,
    summary: "a variant lacks an attribute that players use to choose it")
  public static let bandwidthAbovePeak = VerifyRule(
    id: "multivariant.bandwidth-above-peak", severity: .must,
    source:
      "Apple HLS Authoring Specification, Bit rates (measured peak bit rate within 10% of BANDWIDTH); RFC 8216bis §4.4.6.2",
    origin: .apple, owner: .packager,
    summary:
      "BANDWIDTH is more than 10% above the measured peak segment bit rate: declared, not measured, so players pick a lower variant than the network allows"
  )
  public static let peakOverTwiceAverage = VerifyRule(
    id: "multivariant.peak-over-twice-average", severity: .should,
    source: "Apple HLS Authoring Specification, Bit rates (peak bit rate no more than 200% of the average)",
    origin: .apple, owner: .packager,
    summary: "the measured peak segment bit rate is more than twice the measured average")
}

public enum VariantAttributeRules {
  /// Sample entry codes of video formats, as CODECS lists them (RFC 6381).
  static let videoCodecs: Set<String> = ["avc1", "avc3", "hvc1", "hev1", "dvh1", "dvhe", "av01", "vp09"]

  public static func check(_ playlist: VerifiedMultivariantPlaylist, file: String) -> [Finding] {
    var findings: [Finding] = []
    for variant in playlist.variants {
      let missing = required(variant).filter { variant.value($0) == nil }
      guard !missing.isEmpty else { continue }
      findings.append(
        Finding(
          VerifyRules.variantAttributeMissing, file: file, line: variant.line, segment: variant.uri,
          detail: "no \(missing.joined(separator: ", "))"))
    }
    return findings
  }

  /// What one variant must declare. A variant is video when its CODECS names a
  /// video format or, without CODECS, when it declares a RESOLUTION. I-frame
  /// variants carry neither AVERAGE-BANDWIDTH nor FRAME-RATE (RFC 8216bis §4.4.6.3).
  static func required(_ variant: VerifiedMultivariantPlaylist.Variant) -> [String] {
    let codecs = variant.value("CODECS")
    let isVideo =
      codecs.map { list in
        list.split(separator: ",").contains { videoCodecs.contains(String($0.drop { $0 == " " }.prefix { $0 != "." })) }
      } ?? (variant.value("RESOLUTION") != nil)
    if variant.iFrame { return ["CODECS"] + (isVideo ? ["RESOLUTION"] : []) }
    return ["AVERAGE-BANDWIDTH", "CODECS"] + (isVideo ? ["RESOLUTION", "FRAME-RATE"] : [])
  }
}
