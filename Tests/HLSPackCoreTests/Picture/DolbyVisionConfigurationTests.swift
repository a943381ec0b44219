import Testing

@testable import HLSPackCore

/// The Dolby Vision configuration record as `dvcC`/`dvvC` boxes hold it, and
/// the SUPPLEMENTAL-CODECS entry and copy decision made from it.
@Suite struct DolbyVisionConfigurationTests {
  /// A profile 8.1 `dvvC` payload as FFmpeg writes it (libavformat/dovi_isom.c):
  /// version 1.0, profile 8, level 6, RPU and BL present, compatibility id 1.
  static let profile81Level6: [UInt8] = [0x01, 0x00, 0x10, 0x35, 0x10] + [UInt8](repeating: 0, count: 19)

  @Test func recordFields() throws {
    let record = try #require(DolbyVisionConfiguration(record: Self.profile81Level6[...]))
    #expect(
      record
        == DolbyVisionConfiguration(
          profile: 8, level: 6, rpuPresent: true, enhancementLayerPresent: false, baseLayerPresent: true,
          compatibilityID: 1))
    #expect(DolbyVisionConfiguration(record: Self.profile81Level6.prefix(4)) == nil)
  }

  /// Apple HLS Authoring Specification, Dolby Vision: `dvh1.08.LL/db1p` over
  /// an HDR10 base layer, `/db4h` over HLG, `/db2g` over SDR; the level in two digits.
  @Test func supplementalCodecNamesProfileLevelAndBrand() {
    #expect(DolbyVisionConfiguration(profile: 8, level: 6, compatibilityID: 1).supplementalCodec == "dvh1.08.06/db1p")
    #expect(DolbyVisionConfiguration(profile: 8, level: 10, compatibilityID: 4).supplementalCodec == "dvh1.08.10/db4h")
    #expect(DolbyVisionConfiguration(profile: 8, level: 1, compatibilityID: 2).supplementalCodec == "dvh1.08.01/db2g")
    #expect(DolbyVisionConfiguration(profile: 5, level: 6, compatibilityID: 0).supplementalCodec == "dvh1.05.06")
  }

  @Test func onlyProfile8WithTheBaseLayerItsIDSaysIsCopied() {
    #expect(DolbyVisionConfiguration(profile: 8, level: 6, compatibilityID: 1).copyRefusal(baseLayerRange: .pq) == nil)
    #expect(DolbyVisionConfiguration(profile: 8, level: 6, compatibilityID: 4).copyRefusal(baseLayerRange: .hlg) == nil)
    #expect(
      DolbyVisionConfiguration(profile: 5, level: 6, compatibilityID: 0).copyRefusal(baseLayerRange: .sdr)?
        .hasPrefix("it is Dolby Vision profile 5; only profile 8") == true)
    #expect(
      DolbyVisionConfiguration(profile: 7, level: 6, compatibilityID: 6).copyRefusal(baseLayerRange: .pq)?
        .hasPrefix("it is Dolby Vision profile 7;") == true)
    #expect(
      DolbyVisionConfiguration(profile: 8, level: 6, compatibilityID: 6).copyRefusal(baseLayerRange: .pq)
        == "it is Dolby Vision profile 8 with base-layer compatibility id 6; only 1 (HDR10), 2 (SDR) and 4 (HLG) can be copied"
    )
    #expect(
      DolbyVisionConfiguration(profile: 8, level: 6, compatibilityID: 1).copyRefusal(baseLayerRange: .hlg)
        == "it is Dolby Vision profile 8.1, whose base layer is PQ, but its transfer characteristics say HLG")
  }
}
