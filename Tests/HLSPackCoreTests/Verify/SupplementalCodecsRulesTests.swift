import Testing

@testable import HLSPackCore
@testable import HLSPackVerify

/// SUPPLEMENTAL-CODECS against the Dolby Vision configuration of the
/// segments' sample entry and the RPUs of their first samples.
@Suite struct SupplementalCodecsRulesTests {
  func mismatches(_ attributes: String, _ facts: [SegmentMediaFacts]) throws -> [String] {
    let text = PlaylistText(Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,\(attributes)\nv.m3u8\n".utf8))
    let variant = try #require(VerifiedMultivariantPlaylist(text).variants.first)
    return SupplementalCodecsRules.mismatches(variant, facts).map(\.1)
  }

  func segment(_ configuration: DolbyVisionConfiguration?, rpu: Bool? = true) -> SegmentMediaFacts {
    var facts = SegmentMediaFacts()
    facts.dolbyVision = configuration
    facts.firstSampleHasRPU = configuration == nil ? nil : rpu
    return facts
  }

  @Test func aMatchingEntryPasses() throws {
    let p81 = DolbyVisionConfiguration(profile: 8, level: 6, compatibilityID: 1)
    let attributes = #"CODECS="hvc1.2.4.L93.B0",SUPPLEMENTAL-CODECS="dvh1.08.06/db1p""#
    #expect(try mismatches(attributes, [segment(p81), segment(p81)]) == [])
    // Brands are optional; dvhe is dvh1 with in-band parameter sets.
    #expect(try mismatches(#"SUPPLEMENTAL-CODECS="dvhe.08.06""#, [segment(p81)]) == [])
    // No Dolby Vision entry, or no SUPPLEMENTAL-CODECS: nothing to check (the base layer plays).
    #expect(try mismatches(#"SUPPLEMENTAL-CODECS="foo.1""#, [segment(nil)]) == [])
    #expect(try mismatches(#"CODECS="hvc1.2.4.L93.B0""#, [segment(p81)]) == [])
  }

  @Test func anotherProfileLevelOrBrandIsAMismatch() throws {
    let p84 = DolbyVisionConfiguration(profile: 8, level: 6, compatibilityID: 4)
    for declared in ["dvh1.08.06/db1p", "dvh1.08.07/db4h", "dvh1.05.06"] {
      #expect(
        try mismatches(#"SUPPLEMENTAL-CODECS="\#(declared)""#, [segment(p84)]) == [
          "SUPPLEMENTAL-CODECS names \(declared), the sample entry's configuration is profile 8, level 6, compatibility id 4: dvh1.08.06/db4h"
        ])
    }
  }

  @Test func dolbyVisionTheSegmentsDoNotCarryIsAMismatch() throws {
    #expect(
      try mismatches(#"SUPPLEMENTAL-CODECS="dvh1.08.06/db1p""#, [segment(nil)]) == [
        "SUPPLEMENTAL-CODECS names dvh1.08.06/db1p, but no video sample entry has a Dolby Vision configuration"
      ])
    let p81 = DolbyVisionConfiguration(profile: 8, level: 6, compatibilityID: 1)
    #expect(
      try mismatches(#"SUPPLEMENTAL-CODECS="dvh1.08.06/db1p""#, [segment(p81), segment(p81, rpu: false)]) == [
        "segment 1's first video sample carries no Dolby Vision RPU (NAL type 62)"
      ])
  }
}
