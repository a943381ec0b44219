import Testing

@testable import HLSPackCore

/// Parameter sets as x264 wrote them (`ffmpeg -c:v libx264 -profile:v … -level …
/// -x264-params aud=1 -f h264`), start codes removed.
enum RealNALs {
  static let aud: [UInt8] = [0x09, 0x10]
  /// High@3.1: profile_idc 0x64, constraint flags 0x00, level_idc 0x1F.
  static let spsHigh31: [UInt8] = [
    0x67, 0x64, 0x00, 0x1F, 0xAC, 0xD9, 0x41, 0x41, 0xFB, 0x01, 0x10, 0x00, 0x00, 0x03, 0x00, 0x10,
    0x00, 0x00, 0x03, 0x03, 0x20, 0xF1, 0x83, 0x19, 0x60,
  ]
  /// Main@3.0: profile_idc 0x4D, constraint_set1 (0x40), level_idc 0x1E.
  static let spsMain30: [UInt8] = [
    0x67, 0x4D, 0x40, 0x1E, 0xEC, 0xA0, 0xA0, 0xFD, 0x80, 0x88, 0x00, 0x00, 0x03, 0x00, 0x08, 0x00,
    0x00, 0x03, 0x01, 0x90, 0x78, 0xB1, 0x6C, 0xB0,
  ]
  /// Constrained Baseline@3.0: profile_idc 0x42, constraint_set0 + set1 (0xC0), level_idc 0x1E.
  static let spsBaseline30: [UInt8] = [
    0x67, 0x42, 0xC0, 0x1E, 0xD9, 0x01, 0x41, 0xFB, 0x01, 0x10, 0x00, 0x00, 0x03, 0x00, 0x10, 0x00,
    0x00, 0x03, 0x03, 0x20, 0xF1, 0x62, 0xE4, 0x80,
  ]
  static let pps: [UInt8] = [0x68, 0xEB, 0xE3, 0xCB, 0x22, 0xC0]
  static let idr: [UInt8] = [0x65, 0x88, 0x84, 0x00, 0x21, 0xFF]

  static let three: [UInt8] = [0x00, 0x00, 0x01]
  static let four: [UInt8] = [0x00, 0x00, 0x00, 0x01]
}

private typealias N = RealNALs

@Suite struct CodecStringTests {
  @Test(arguments: [
    (N.spsHigh31, "avc1.64001f"),
    (N.spsMain30, "avc1.4d401e"),
    (N.spsBaseline30, "avc1.42c01e"),
  ])
  func avc1FromSPS(sps: [UInt8], expected: String) {
    #expect(CodecString.avc1(annexB: N.four + sps + N.four + N.pps + N.three + N.idr) == expected)
    #expect(CodecString.avc1(annexB: N.three + sps) == expected)
  }

  @Test func spsAfterAccessUnitDelimiter() {
    // x264 with aud=1 writes 09 10 first; the SPS is the second NAL.
    let accessUnit = N.four + N.aud + N.four + N.spsHigh31 + N.four + N.pps + N.three + N.idr
    #expect(CodecString.avc1(annexB: accessUnit) == "avc1.64001f")
  }

  @Test func avc1NeedsAnSPS() {
    #expect(CodecString.avc1(annexB: N.four + N.pps + N.three + N.idr) == nil)
    #expect(CodecString.avc1(annexB: []) == nil)
    // An SPS without profile, flags and level bytes cannot name a codec.
    #expect(CodecString.avc1(annexB: N.four + [0x67, 0x64, 0x00]) == nil)
    // Bytes without a start code are not a NAL unit.
    #expect(CodecString.avc1(annexB: N.spsHigh31) == nil)
  }

  @Test func avc1IgnoresNALRefIdc() {
    // nal_ref_idc 0 (0x07 instead of 0x67) is still an SPS: only the low 5 bits are the type.
    #expect(CodecString.avc1(annexB: N.three + [0x07, 0x64, 0x00, 0x28]) == "avc1.640028")
  }

  @Test(
    arguments: [
      // 00010 0100 0010 000: AAC-LC, 44.1 kHz, stereo.
      ([0x12, 0x10], "mp4a.40.2"),
      // What FFmpeg's AAC encoder writes (LC, 44.1 kHz, mono, plus trailing bytes).
      ([0x12, 0x08, 0x56, 0xE5, 0x00], "mp4a.40.2"),
      // 00101 0111 0010 …: explicit HE-AAC (SBR), AOT 5.
      ([0x2B, 0x92, 0x08, 0x00], "mp4a.40.5"),
      // 11101 …: HE-AACv2 (PS), AOT 29.
      ([0xEB, 0x09, 0x88, 0x00], "mp4a.40.29"),
      // 11111 + 001010: escape, AOT 32 + 10 = 42 (USAC / xHE-AAC).
      ([0xF9, 0x40, 0x00], "mp4a.40.42"),
      // 11111 + 000000: escape, AOT 32 (Layer-1).
      ([0xF8, 0x00], "mp4a.40.32"),
      // 11111 + 111111: the largest escaped AOT, 95.
      ([0xFF, 0xE0], "mp4a.40.95"),
    ] as [([UInt8], String)])
  func mp4aFromAudioSpecificConfig(asc: [UInt8], expected: String) {
    #expect(CodecString.mp4a(audioSpecificConfig: asc) == expected)
  }

  @Test(arguments: [[], [0x00, 0x00], [0x07], [0xF8]] as [[UInt8]])
  func mp4aRejectsNullOrTruncatedConfigs(asc: [UInt8]) {
    // AOT 0 is "null"; an escape needs a second byte.
    #expect(CodecString.mp4a(audioSpecificConfig: asc) == nil)
  }
}
