import HLSPackCore

/// SUPPLEMENTAL-CODECS against what a variant's fMP4 segments carry: a Dolby
/// Vision entry (`dvh1.PP.LL/brand`, RFC 8216bis §4.4.6.2) must name the
/// profile, level and base-layer compatibility brand of the video sample
/// entry's `dvcC`/`dvvC`, and the samples must carry the RPUs it announces.
/// A Dolby Vision stream without SUPPLEMENTAL-CODECS is not a finding: it
/// plays as its base layer, which CODECS names.
enum SupplementalCodecsRules {
  /// Sample entry codes of Dolby Vision formats (HEVC with the parameter sets
  /// in the sample entry or in band; AVC; AV1).
  static let dolbyVisionFormats: Set<String> = ["dvh1", "dvhe", "dva1", "dvav", "dav1"]

  static func mismatches(
    _ variant: VerifiedMultivariantPlaylist.Variant, _ facts: [SegmentMediaFacts]
  ) -> [(VerifyRule, String)] {
    guard let declared = variant.value("SUPPLEMENTAL-CODECS") else { return [] }
    let entries = declared.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    guard let entry = entries.first(where: { dolbyVisionFormats.contains(String($0.prefix { $0 != "." })) }) else {
      return []
    }
    let rule = VerifyRules.variantSupplementalCodecsMismatch
    guard let carried = facts.lazy.compactMap(\.dolbyVision).first else {
      return [(rule, "SUPPLEMENTAL-CODECS names \(entry), but no video sample entry has a Dolby Vision configuration")]
    }
    var found: [(VerifyRule, String)] = []
    if !matches(entry.lowercased(), carried) {
      found.append(
        (
          rule,
          "SUPPLEMENTAL-CODECS names \(entry), the sample entry's configuration is profile \(carried.profile), level \(carried.level), compatibility id \(carried.compatibilityID): \(carried.supplementalCodec)"
        ))
    }
    if let index = facts.firstIndex(where: { $0.firstSampleHasRPU == false }) {
      found.append((rule, "segment \(index)'s first video sample carries no Dolby Vision RPU (NAL type 62)"))
    }
    return found
  }

  /// The same profile and level, and the same brand when the entry lists
  /// brands (they are optional); `dvhe` (parameter sets in band) for `dvh1`
  /// is the sample entry's business, which CODECS already checks.
  private static func matches(_ entry: String, _ carried: DolbyVisionConfiguration) -> Bool {
    let parts = entry.replacingOccurrences(of: "dvhe.", with: "dvh1.").split(separator: "/").map(String.init)
    let expected = carried.supplementalCodec.split(separator: "/").map(String.init)
    guard parts.first == expected.first else { return false }
    return parts.count == 1 || expected.dropFirst().allSatisfy { parts.dropFirst().contains($0) }
  }
}
