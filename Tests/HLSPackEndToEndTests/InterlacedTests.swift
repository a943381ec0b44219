import Foundation
import HLSPackTestSupport
import Testing

/// HLS video is progressive: an interlaced (25i) source is deinterlaced
/// before scaling, so a rung at the source's size shows no combing.
@Suite("Interlaced sources")
struct InterlacedTests {
  /// `ffmpeg -vf idet` counts of frames that look top-field-first and progressive.
  func idet(_ path: String) throws -> (tff: Int, progressive: Int) {
    let run = try Command.run("ffmpeg", ["-i", path, "-vf", "idet", "-f", "null", "-"])
    let line = try #require(run.stderr.split(separator: "\n").first { $0.contains("Multi frame detection") })
    let count = { (name: String) -> Int in
      guard let label = line.range(of: "\(name):") else { return -1 }
      return Int(line[label.upperBound...].drop { $0 == " " }.prefix { $0.isNumber }) ?? -1
    }
    return (count("TFF"), count("Progressive"))
  }

  @Test func aFullSizeRungIsProgressive() throws {
    let scratch = try ScratchFolder.make()
    let source = scratch.appendingPathComponent("interlaced.mp4")
    let made = try Command.run(
      "ffmpeg",
      [
        "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=720x576:rate=50:duration=2", "-vf",
        "interlace=scan=tff,setfield=tff",
        "-c:v", "libx264", "-preset", "ultrafast", "-flags", "+ilme+ildct", "-x264opts", "tff=1", "-pix_fmt", "yuv420p",
        source.path,
      ])
    #expect(made.status == 0, "\(made.stderr)")
    #expect(try idet(source.path).tff > 40, "the source must look interlaced")
    let (run, asset) = try Fixtures.encodeOneRung(
      source, rung: "sd", width: 720, height: 576, bitrate: 1_500_000, in: scratch)
    #expect(run.status == 0, "\(run.stderr)")
    let packaged = try idet(asset.appendingPathComponent("sd/index.m3u8").path)
    #expect(packaged.tff == 0 && packaged.progressive > 40, "\(packaged)")
  }
}
