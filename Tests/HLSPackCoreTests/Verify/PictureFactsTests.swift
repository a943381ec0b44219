import Testing

@testable import HLSPackCore
@testable import HLSPackVerify

/// What verify reads from parameter sets and sample entries to check a
/// variant's RESOLUTION, FRAME-RATE, VIDEO-RANGE and CODECS.
@Suite struct PictureFactsTests {
  /// An x265 SPS: 320×184 coded, the conformance window cropping 4 lines,
  /// VUI timing at 25 fps, transfer_characteristics 16 (SMPTE ST 2084).
  static let hevcPQ = "4201010408000003009e0800000300003c9001410173e5cb2b349265780b7091000040000003004000000642"
  /// An x264 SPS (High 4:4:4 Predictive): 320×180, 25 fps, transfer_characteristics 18 (ARIB STD-B67).
  static let h264HLG = "67f4000c919b282833f1b80b50912094000003000400000300c83c50a658"
  /// An x264 SPS whose VUI's colour description says "unspecified" (2) for transfer_characteristics.
  static let h264Plain = "6742c00dda05067e7c05a8101032000003000200000300641e28554000"

  @Test func hevcPictureCroppedToTheConformanceWindow() throws {
    let sps = try #require(Hex.decode(Self.hevcPQ))
    let picture = try #require(SPSPicture(hevcSPS: sps[...]))
    #expect(picture.width == 320 && picture.height == 180)
    #expect(picture.frameRate == 25)
    #expect(picture.transferCharacteristics == 16 && picture.videoRange == .pq)
    #expect(SPSPicture.firstSPS(in: [sps[...]], hevc: true) == picture)
  }

  @Test func h264TransferCharacteristics() throws {
    let hlg = try #require(Hex.decode(Self.h264HLG))
    let picture = try #require(SPSPicture(h264SPS: hlg[...]))
    #expect(picture.width == 320 && picture.height == 180 && picture.frameRate == 25)
    #expect(picture.transferCharacteristics == 18 && picture.videoRange == .hlg)
    let plain = try #require(Hex.decode(Self.h264Plain))
    let sdr = try #require(SPSPicture(h264SPS: plain[...]))
    #expect(sdr.transferCharacteristics == 2 && sdr.videoRange == .sdr)
    // No VUI, or no colour description: transfer_characteristics is inferred unspecified (E.2.1).
    #expect(SPSPicture(width: 320, height: 180, frameRate: nil, transferCharacteristics: nil).videoRange == .sdr)
  }

  func variant(_ attributes: String) throws -> VerifiedMultivariantPlaylist.Variant {
    let text = PlaylistText(Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,\(attributes)\nv.m3u8\n".utf8))
    return try #require(VerifiedMultivariantPlaylist(text).variants.first)
  }

  func mismatches(_ attributes: String, sps hex: String, hevc: Bool) throws -> [String] {
    var facts = SegmentMediaFacts()
    let sps = try #require(Hex.decode(hex))
    facts.picture = hevc ? SPSPicture(hevcSPS: sps[...]) : SPSPicture(h264SPS: sps[...])
    return VariantBitstreamRules.pictureMismatches(try variant(attributes), facts).map(\.0.id)
  }

  /// VIDEO-RANGE absent means SDR (RFC 8216bis §4.4.6.2).
  @Test func videoRangeAgainstTheSPS() throws {
    let declared = "RESOLUTION=320x180,FRAME-RATE=25.000"
    #expect(try mismatches(declared + ",VIDEO-RANGE=PQ", sps: Self.hevcPQ, hevc: true) == [])
    #expect(try mismatches(declared, sps: Self.hevcPQ, hevc: true) == ["variant.video-range-mismatch"])
    #expect(
      try mismatches(declared + ",VIDEO-RANGE=PQ", sps: Self.h264HLG, hevc: false) == ["variant.video-range-mismatch"])
    #expect(try mismatches(declared, sps: Self.h264Plain, hevc: false) == [])
    #expect(try mismatches(declared + ",VIDEO-RANGE=SDR", sps: Self.h264Plain, hevc: false) == [])
    #expect(
      try mismatches(declared + ",VIDEO-RANGE=HLG", sps: Self.h264Plain, hevc: false) == [
        "variant.video-range-mismatch"
      ])
  }

  @Test func hevcResolutionIsTheCroppedSize() throws {
    let uncropped = "RESOLUTION=320x184,FRAME-RATE=25.000,VIDEO-RANGE=PQ"
    #expect(try mismatches(uncropped, sps: Self.hevcPQ, hevc: true) == ["variant.resolution-mismatch"])
    let fast = "RESOLUTION=320x180,FRAME-RATE=50.000,VIDEO-RANGE=PQ"
    #expect(try mismatches(fast, sps: Self.hevcPQ, hevc: true) == ["variant.frame-rate-mismatch"])
  }

  /// An esds payload (version and flags, then ES_Descriptor) around `config`,
  /// with 1-byte or 4-byte descriptor sizes (ffmpeg writes the latter).
  func esds(_ config: [UInt8], indication: UInt8 = 0x40, esFlags: [UInt8] = [0], longSizes: Bool = false) -> [UInt8] {
    func descriptor(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] {
      [tag] + (longSizes ? [0x80, 0x80, 0x80] : []) + [UInt8(body.count)] + body
    }
    let decoderConfig = descriptor(4, [indication, 0x15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] + descriptor(5, config))
    return [0, 0, 0, 0] + descriptor(3, [0, 1] + esFlags + decoderConfig + descriptor(6, [2]))
  }

  /// The first audioObjectType of the AudioSpecificConfig names the codec
  /// (RFC 6381 §3.3; ISO/IEC 14496-3 §1.6.2.1).
  @Test func esdsCodecStrings() {
    func codec(_ payload: [UInt8]) -> String? { ElementaryStreamDescriptor.codecString(esds: payload[...]) }
    // AAC-LC, 48 kHz, stereo.
    #expect(codec(esds([0x11, 0x90])) == "mp4a.40.2")
    #expect(codec(esds([0x11, 0x90], longSizes: true)) == "mp4a.40.2")
    // HE-AAC with explicit SBR signalling: audioObjectType 5 first.
    #expect(codec(esds([0x2B, 0x11, 0x88, 0x00])) == "mp4a.40.5")
    // Escape 31 and 6 more bits: 32 + 10 = 42 (USAC).
    #expect(codec(esds([0xF9, 0x40])) == "mp4a.40.42")
    // streamDependenceFlag and URL_Flag add dependsOn_ES_ID and a URL before the DecoderConfigDescriptor.
    #expect(codec(esds([0x11, 0x90], esFlags: [0xC0, 0, 2, 3, 0x61, 0x62, 0x63])) == "mp4a.40.2")
    #expect(codec(esds([], indication: 0x6B)) == "mp4a.6B")
    #expect(codec(Array(esds([0x11, 0x90]).prefix(12))) == nil)
  }
}
