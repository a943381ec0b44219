import Foundation
import HLSPackTestSupport
import Testing

/// Numbers at and past the ends of a profile's ranges, through the command:
/// refused with exit 2 before any work, or encoded; never a trap that leaves
/// a staging folder behind and the later inputs unrun.
@Suite("profile extreme values")
struct ProfileExtremeValuesTests {
  @Test(arguments: ["4294967296/4294967296", "2147483648/1073741824", "9223372036854775807/9223372036854775807"])
  func frameRateTermsPast32BitsAreRefusedBeforeAnyWork(_ fps: String) throws {
    let scratch = try ScratchFolder.make("fps-\(fps.prefix(10))")
    let (run, _) = try Fixtures.encodeOneRung(
      try Fixtures.clip(), rung: "low", width: 320, height: 180, bitrate: 300_000, fields: #", "fps": "\#(fps)""#,
      in: scratch)
    #expect(run.status == 2, "\(run.stderr)")
    #expect(
      run.stderr.contains(
        "$.video[0].fps: \"\(fps)\": a frame rate's numerator and denominator must be from 1 to 1000000"),
      "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("out").path))
  }

  /// The largest terms a profile may give, near both ends of the rate range.
  @Test(arguments: ["1000000/999999", "999999/8335"])
  func largestFrameRateTermsEncode(_ fps: String) throws {
    let scratch = try ScratchFolder.make("fps-\(fps.prefix(7))")
    let (run, asset) = try Fixtures.encodeOneRung(
      try Fixtures.clip(), rung: "low", width: 320, height: 180, bitrate: 300_000, fields: #", "fps": "\#(fps)""#,
      in: scratch)
    #expect(run.status == 0, "\(run.stderr)")
    // The clip lasts 4 s (100 frames at 25 fps): the rung has 4 s of frames at its own rate.
    let probe = try Command.run(
      "ffprobe",
      [
        "-v", "error", "-count_frames", "-select_streams", "v", "-show_entries", "stream=nb_read_frames", "-of",
        "csv=p=0",
        asset.appendingPathComponent("low/index.m3u8").path,
      ])
    let terms = fps.split(separator: "/").compactMap { Double($0) }
    let expected = 4 * terms[0] / terms[1]
    let frames = try #require(
      probe.text.split(whereSeparator: { !$0.isNumber }).first.flatMap { Double($0) }, "\(probe.text) \(probe.stderr)")
    #expect(abs(frames - expected) <= 1, "\(frames) frames, expected \(expected)")
  }
}
