import HLSPackCore
import Testing

/// Level limits from H.264 Table A-1 and HEVC Table A.8, at their edges.
@Suite struct CodecLevelTests {
  let h264_31 = CodecLevel(codec: .h264, name: "3.1")
  let hevc_41 = CodecLevel(codec: .hevc, name: "4.1")

  @Test func everyLevelOfTheProfileReaderHasLimits() {
    for codec in [VideoCodec.h264, .hevc] {
      #expect(CodecLevel.names(of: codec).allSatisfy { CodecLevel(codec: codec, name: $0) != nil })
    }
    #expect(CodecLevel.names(of: .h264).count == 20 && CodecLevel.names(of: .hevc).count == 13)
    #expect(CodecLevel(codec: .hevc, name: "1b") == nil && CodecLevel(codec: .copy, name: "3.1") == nil)
  }

  /// 1280x720 is exactly MaxFS 3600 at level 3.1, and 30 fps exactly MaxMBPS 108000.
  @Test func h264AtItsLimits() throws {
    let level = try #require(h264_31)
    #expect(level.pictureProblem(width: 1280, height: 720) == nil)
    #expect(level.pictureProblem(width: 1280, height: 722) != nil)
    #expect(level.rateProblem(width: 1280, height: 720, rate: FrameRate(numerator: 30, denominator: 1)) == nil)
    #expect(level.rateProblem(width: 1280, height: 720, rate: FrameRate(numerator: 30001, denominator: 1000)) != nil)
    // 14 Mb/s for Main, 1.25 times that for High (also when no profile is set: x264 picks High).
    #expect(
      level.bitrateProblem(14_000_000, profile: "main") == nil
        && level.bitrateProblem(14_000_001, profile: "main") != nil)
    #expect(
      level.bitrateProblem(17_500_000, profile: nil) == nil && level.bitrateProblem(17_500_001, profile: "high") != nil)
  }

  /// 2048x1088 is 2228224 luma samples, MaxLumaPs at level 4.1; 60 fps of it is MaxLumaSr 133693440.
  @Test func hevcAtItsLimits() throws {
    let level = try #require(hevc_41)
    #expect(level.pictureProblem(width: 2048, height: 1088) == nil)
    #expect(level.pictureProblem(width: 2050, height: 1088) != nil)
    // A side longer than √(8·MaxLumaPs) = 4222, even though the picture is small enough.
    #expect(level.pictureProblem(width: 4224, height: 16)?.contains("side of at most 4222") == true)
    #expect(level.rateProblem(width: 2048, height: 1088, rate: FrameRate(numerator: 60, denominator: 1)) == nil)
    #expect(level.rateProblem(width: 2048, height: 1088, rate: FrameRate(numerator: 61, denominator: 1)) != nil)
    #expect(
      level.bitrateProblem(20_000_000, profile: "main") == nil && level.bitrateProblem(20_000_001, profile: nil) != nil)
  }
}
