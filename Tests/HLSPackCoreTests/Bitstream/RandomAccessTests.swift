import HLSPackCore
import Testing

struct RandomAccessTests {
  @Test func h264OnlyAnIDROpensASegment() {
    #expect(RandomAccess.opening(nalTypes: [9, 7, 8, 6, 5], hevc: false) == .independent)
    // An open-GOP I picture: SEI (recovery point) and a non-IDR slice.
    #expect(RandomAccess.opening(nalTypes: [9, 6, 1], hevc: false) == .dependent)
  }

  @Test func hevcIDRAndBLAAreIndependentACRAOnlyWithoutRASL() {
    #expect(RandomAccess.opening(nalTypes: [35, 32, 33, 34, 19], hevc: true) == .independent)
    #expect(RandomAccess.opening(nalTypes: [16], hevc: true) == .independent)
    #expect(RandomAccess.opening(nalTypes: [35, 21], hevc: true) == .cleanRandomAccess)
    #expect(RandomAccess.opening(nalTypes: [1], hevc: true) == .dependent)
    #expect(RandomAccess.isSkippedLeading(nalTypes: [9], hevc: true))
    #expect(!RandomAccess.isSkippedLeading(nalTypes: [7], hevc: true))
    #expect(!RandomAccess.isSkippedLeading(nalTypes: [9], hevc: false))
  }

  @Test func nalTypesFromLengthPrefixedAndAnnexBBytes() {
    let prefixed: [UInt8] = [0, 0, 0, 2, 0x09, 0xF0, 0, 0, 0, 3, 0x65, 0x88, 0x84]
    #expect(RandomAccess.nalTypes(prefixed, lengthSize: 4, hevc: false) == [9, 5])
    let annexB: [UInt8] = [0, 0, 0, 1, 0x40, 0x01, 0x0C, 0, 0, 1, 0x2A, 0x01, 0xAF]
    #expect(RandomAccess.nalTypes(annexB, lengthSize: nil, hevc: true) == [32, 21])
    // A length running past the end stops the walk instead of reading beyond it.
    #expect(RandomAccess.nalTypes([0, 0, 0, 9, 0x65], lengthSize: 4, hevc: false) == [])
  }

  @Test func lengthSizeComesFromTheConfigurationRecord() {
    // avcC: version 1, profile/compat/level, lengthSizeMinusOne = 3, no SPS, no PPS.
    #expect(RandomAccess.lengthSize(configuration: [1, 0x64, 0, 0x1F, 0xFF, 0xE0, 0], hevc: false) == 4)
    #expect(RandomAccess.lengthSize(configuration: [0, 0, 0, 1, 0x67], hevc: false) == nil)
    #expect(RandomAccess.lengthSize(configuration: [], hevc: true) == nil)
  }
}
