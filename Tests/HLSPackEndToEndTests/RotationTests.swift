import Foundation
import Testing

/// Phone video stores the picture as the sensor saw it plus a display matrix;
/// players show it turned, and so must every rung (HLS has no rotation tag).
@Suite("Rotated sources")
struct RotationTests {
  /// The first picture of the package against the source as ffmpeg shows it
  /// (autorotated), both at the rung's size: PSNR in dB.
  func psnrAgainstTheShownSource(rotate: Int, width: Int, height: Int) throws -> Double {
    let scratch = try Fixtures.scratchFolder("rotate\(rotate)")
    let plain = scratch.appendingPathComponent("plain.mp4")
    let rotated = scratch.appendingPathComponent("phone.mp4")
    for (arguments, output) in [
      (["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=2", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"], plain),
      (["-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=\(rotate)"], rotated),
    ] {
      let made = try Command.run("ffmpeg", ["-v", "error"] + arguments + [output.path])
      guard made.status == 0 else { throw FixtureError(made.stderr) }
    }
    let (run, asset) = try Fixtures.encodeOneRung(rotated, rung: "v", width: width, height: height, bitrate: 800000, in: scratch)
    #expect(run.status == 0, "\(run.stderr)")
    let shown = scratch.appendingPathComponent("shown.png"), packaged = scratch.appendingPathComponent("packaged.png")
    _ = try Command.run("ffmpeg", ["-v", "error", "-i", rotated.path, "-frames:v", "1", "-vf", "scale=\(width):\(height)", shown.path])
    _ = try Command.run("ffmpeg", ["-v", "error", "-i", asset.appendingPathComponent("v/segment_00000.ts").path, "-frames:v", "1", packaged.path])
    let psnr = try Command.run("ffmpeg", ["-i", packaged.path, "-i", shown.path, "-lavfi", "psnr", "-f", "null", "-"])
    let average = psnr.stderr.firstMatch(of: /average:([0-9.]+|inf)/).map { String($0.1) } ?? "0"
    return average == "inf" ? 100 : Double(average) ?? 0
  }

  @Test(arguments: [(90, 360, 640), (180, 640, 360), (270, 360, 640)])
  func everyRungIsTurnedUpright(rotate: Int, width: Int, height: Int) throws {
    let psnr = try psnrAgainstTheShownSource(rotate: rotate, width: width, height: height)
    // Turned the wrong way, the same test pattern scores below 15 dB.
    #expect(psnr > 35, "rotate \(rotate): \(psnr) dB")
  }
}
