import Foundation
import HLSPackTestSupport
import Testing

/// Rungs against their source on the command line: another shape, upscaling, a
/// level the source's rate exceeds, HDR, and the colours the rungs declare.
extension CommandLineTests {
  /// Rungs have square pixels at the size asked for; a source shown at 4:3
  /// is stretched into 16:9 rungs, and the user is told.
  @Test func aRungOfAnotherShapeThanTheSourceIsReported() throws {
    let scratch = try ScratchFolder.make()
    let run = try encode(try remuxedClip("narrow.mp4", ["-aspect", "4:3"], in: scratch).path)
    #expect(run.result.status == 0, "\(run.result.stderr)")
    #expect(
      run.result.stderr.contains("but the source's picture is 1.333:1 as shown; it is stretched to fit"),
      "\(run.result.stderr)")
    #expect(!(try encode(try Fixtures.clip().path)).result.stderr.contains("stretched"))
  }

  /// What is chosen for the user is said: which of several video streams is
  /// encoded, and which rungs are larger than the picture they are made from.
  @Test func severalVideoStreamsAndUpscaledRungsAreReported() throws {
    let scratch = try ScratchFolder.make()
    let source = scratch.appendingPathComponent("two.mp4")
    let made = try Command.run(
      "ffmpeg",
      [
        "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=2", "-f", "lavfi", "-i",
        "smptebars=size=640x360:rate=25:duration=2",
        "-map", "0", "-map", "1", "-c:v", "libx264", "-g", "25", source.path,
      ])
    #expect(made.status == 0, "\(made.stderr)")
    let run = try encode(source.path)
    #expect(run.result.status == 0, "\(run.result.stderr)")
    #expect(
      run.result.stderr.contains("\(source.path): has 2 video streams; stream #0, FFmpeg's choice"),
      "\(run.result.stderr)")
    #expect(
      run.result.stderr.contains(
        "\(source.path): rung high (640x360) is larger than the source's picture (320x180 as shown): it is upscaled"),
      "\(run.result.stderr)")
    #expect(!run.result.stderr.contains("rung low"), "\(run.result.stderr)")
    let plain = try encode(try Fixtures.clip().path)
    #expect(
      !plain.result.stderr.contains("upscaled") && !plain.result.stderr.contains("video streams"),
      "\(plain.result.stderr)")
  }

  /// Padded, the picture is scaled to the size between the bars, and that
  /// size is what the source is compared with.
  @Test func aPaddedRungIsUpscaledByThePictureBetweenItsBars() throws {
    let scratch = try ScratchFolder.make()
    let source = scratch.appendingPathComponent("small.mp4")
    try Fixtures.ffmpeg([
      "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=1", "-c:v", "libx264", "-preset", "ultrafast",
      source.path,
    ])
    let (run, _) = try Fixtures.encodeOneRung(
      source, rung: "v", width: 640, height: 360, bitrate: 800_000, fields: #", "fit": "pad""#, in: scratch)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stderr.contains(
        "\(source.path): rung v (640x360, a 480x360 picture) is larger than the source's picture (320x240 as shown): it is upscaled"
      ),
      "\(run.stderr)")
  }

  /// A rung without "fps" takes the source's rate, which only the source
  /// tells: 320x180 (240 macroblocks) fits level 1.2 at 25 fps (6000 per
  /// second, its limit) but not at 50.
  @Test func aSourceRateBeyondTheRungsLevelIsRefused() throws {
    let scratch = try ScratchFolder.make()
    let source = scratch.appendingPathComponent("fast.mp4")
    try Fixtures.ffmpeg([
      "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=50:duration=1", "-c:v", "libx264", "-preset", "ultrafast",
      source.path,
    ])
    let profile = try Fixtures.profile(
      in: scratch, encryption: #"{"method": "none"}"#,
      rungs: [
        #"{"name": "low", "width": 320, "height": 180, "bitrate": 300000, "level": "1.2", "preset": "ultrafast"}"#
      ])
    let output = scratch.appendingPathComponent("out")
    let run = try Command.run(
      try Fixtures.executable(), ["encode", "--profile", profile.path, "--output", output.path, source.path])
    #expect(run.status == 1)
    #expect(
      run.stderr.contains(
        "\(source.path): rung low takes the source's frame rate: level 1.2 allows 6000 macroblocks per second; 320x180 at 50 fps has 12000"
      ),
      "\(run.stderr)")
    expectNothingPublished(output)
  }

  /// Rungs are 8-bit SDR and nothing tone-maps: an HDR source would come out
  /// washed out under an SDR label, so it is refused, pointing to copy mode.
  @Test func hdrSourceIsRefusedForEncoding() throws {
    let scratch = try ScratchFolder.make()
    let source = scratch.appendingPathComponent("pq.mp4")
    let made = try Command.run(
      "ffmpeg", ["-v", "error"] + CopyModeTests.tenBitHEVC(transfer: "smpte2084") + [source.path])
    #expect(made.status == 0, "\(made.stderr)")
    let run = try encode(source.path)
    #expect(run.result.status == 1)
    #expect(
      run.result.stderr.contains(
        "\(source.path): video stream #0 is HDR (PQ); encoded rungs are 8-bit SDR and hlspack does not tone-map"),
      "\(run.result.stderr)")
    #expect(
      run.result.stderr.contains(#"so $.video[0].codec "h264" would show wrong colours: use "hevc" (Main 10"#),
      "\(run.result.stderr)")
    expectNothingPublished(run.output)
  }

  /// Every rung declares the source's colours, or the matrix players would
  /// guess for the source (BT.709 for HD, BT.601 for SD); an RGB source is
  /// converted with BT.601. A 320x180 rung of an HD source is then not shown
  /// with SD colours.
  @Test(arguments: [
    (
      "tagged.mp4", ["-c:v", "libx264", "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709"],
      "bt709,bt709,bt709"
    ),
    ("hd.mp4", ["-c:v", "libx264"], "bt709,unknown,unknown"),
    ("rgb.mkv", ["-c:v", "png"], "smpte170m,unknown,unknown"),
  ])
  func rungsDeclareTheSourcesColours(name: String, codec: [String], expected: String) throws {
    let scratch = try ScratchFolder.make()
    let source = scratch.appendingPathComponent(name)
    let made = try Command.run(
      "ffmpeg",
      ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=25:duration=2"] + codec + [
        "-g", "25", source.path,
      ])
    #expect(made.status == 0, "\(made.stderr)")
    try expectRungColours(
      try encode(source.path, profileEncryption: #"{"method": "none"}"#),
      asset: source.deletingPathExtension().lastPathComponent, expected)
  }

  @Test func rungsOfAnUntaggedSDSourceDeclareBT601() throws {
    try expectRungColours(
      try encode(try Fixtures.clip().path, profileEncryption: #"{"method": "none"}"#), asset: "clip",
      "smpte170m,unknown,unknown")
  }

  /// Range, matrix, transfer and primaries of every rung (ffprobe's order), read from the written stream.
  func expectRungColours(_ run: Run, asset: String, _ expected: String) throws {
    #expect(run.result.status == 0, "\(run.result.stderr)")
    for rung in ["high", "low"] {
      let probe = try Command.run(
        "ffprobe",
        [
          "-v", "error", "-select_streams", "v", "-show_entries",
          "stream=color_space,color_primaries,color_transfer,color_range",
          "-of", "csv=p=0", run.output.appendingPathComponent("\(asset)/\(rung)/segment_00000.ts").path,
        ])
      // One line for the stream and one for the TS program that lists it.
      #expect(Set(probe.text.split(separator: "\n").map(String.init)) == ["tv,\(expected)"], "\(rung): \(probe.text)")
    }
  }
}
