import Foundation
import HLSPackTestSupport
import Testing

/// Sources that cannot make a conformant ladder when copied are refused,
/// naming the source, the rendition or the time.
extension CopyModeTests {
  @Test func aRawH264StreamIsRefusedForItsMissingTimestamps() throws {
    let (result, _, asset) = try encodeMadeSource(
      "clip.h264", ["-i", try Fixtures.clip().path, "-an", "-c:v", "copy", "-bsf:v", "h264_mp4toannexb"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("clip.h264: video packet 0 has no timestamps"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: asset.path))
  }

  /// Open GOPs mark keyframes whose segments would not decode on their own:
  /// x264's recovery-point I pictures, x265's CRA pictures with RASL followers.
  @Test(arguments: [
    (
      "open.mp4", ["-c:v", "libx264", "-preset", "veryfast", "-g", "25", "-x264-params", "open-gop=1"],
      "the keyframe at 1.000 s that opens a segment is not an IDR picture"
    ),
    (
      "open.mp4",
      ["-c:v", "libx265", "-preset", "fast", "-x265-params", "keyint=25:min-keyint=25:scenecut=0:log-level=none"],
      "that opens a segment is followed by a RASL picture"
    ),
  ])
  func openGOPSourcesAreRefused(name: String, codec: [String], message: String) throws {
    let (result, _, asset) = try encodeMadeSource(
      name, ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=3"] + codec)
    #expect(result.status == 1)
    #expect(result.stderr.contains("rendition main: "), "\(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: asset.path))
  }

  @Test func misalignedKeyframesAreRefusedNamingRenditionAndTime() throws {
    let scratch = try ScratchFolder.make()
    let result = try encode(container: "ts", low: try Self.lowSource(in: scratch, keyframes: "0,1.2,2.2,3.2"))
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "rendition low is not keyframe-aligned with main: segment 1 starts at 1.200 s in low and at 1.000 s in main"))
    #expect(
      (try? FileManager.default.contentsOfDirectory(atPath: scratch.appendingPathComponent("out-ts").path)) ?? [] == [])
  }

  /// Switching variants must not drop or add the sound.
  @Test func aSourceWithoutTheOthersAudioIsRefused() throws {
    let scratch = try ScratchFolder.make()
    let low = try Self.lowSource(in: scratch, audio: false)
    let result = try encode(container: "ts", low: low)
    #expect(result.status == 1)
    #expect(
      result.stderr.contains("\(low.path): has no audio stream, but the source of rendition main has one"),
      "\(result.stderr)")
  }

  @Test func renditionsOfDifferentLengthsAreRefused() throws {
    let scratch = try ScratchFolder.make()
    let result = try encode(container: "ts", low: try Self.lowSource(in: scratch, seconds: 3.2))
    #expect(result.status == 1)
    #expect(result.stderr.contains("rendition low ends at 3.200 s but main ends at 4.000 s"), "\(result.stderr)")
  }

  @Test func ac3IntoFragmentedMP4IsRefusedNamingTheStream() throws {
    let scratch = try ScratchFolder.make()
    let low = try Self.lowSource(in: scratch, audioCodec: "ac3")
    let result = try encode(container: "fmp4", low: low)
    #expect(result.status == 1)
    #expect(
      result.stderr.contains("\(low.path): audio stream is ac3, which hlspack does not put in fMP4"), "\(result.stderr)"
    )
  }

  @Test func segmentsTooLongForTheTargetAreRefused() throws {
    let scratch = try ScratchFolder.make()
    let result = try encode(container: "ts", low: try Self.lowSource(in: scratch, keyframes: "0,1,3"))
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "rendition low: the segment starting at 1.000 s lasts 2.000 s, more than the target 1 s + 0.5 s"))
  }
}
