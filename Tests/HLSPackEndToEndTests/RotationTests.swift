import Foundation
import HLSPackTestSupport
import Testing

/// Phone video stores the picture as the sensor saw it plus a display matrix;
/// players show it turned, and so must every rung (HLS has no rotation tag).
@Suite("Rotated sources")
struct RotationTests {
  /// The first picture of the package against the source as ffmpeg shows it
  /// (autorotated, mirrored too), both at the rung's size: PSNR in dB. The
  /// source gets `rotate` as metadata, or else `matrix` (a, b, c, d of the
  /// display matrix) written into its track header.
  func psnrAgainstTheShownSource(
    rotate: Int = 0, matrix: (Int32, Int32, Int32, Int32)? = nil, width: Int, height: Int
  ) throws -> Double {
    let scratch = try ScratchFolder.make("rotate\(rotate)")
    let plain = scratch.appendingPathComponent("plain.mp4")
    let rotated = scratch.appendingPathComponent("phone.mp4")
    for (arguments, output) in [
      (
        [
          "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=2", "-c:v", "libx264", "-preset", "ultrafast",
          "-pix_fmt", "yuv420p",
        ], plain
      ),
      (["-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=\(rotate)"], rotated),
    ] {
      let made = try Command.run("ffmpeg", ["-v", "error"] + arguments + [output.path])
      guard made.status == 0 else { throw FixtureError(made.stderr) }
    }
    if let matrix { try Self.writeDisplayMatrix(matrix, into: rotated) }
    let (run, asset) = try Fixtures.encodeOneRung(
      rotated, rung: "v", width: width, height: height, bitrate: 800000, in: scratch)
    #expect(run.status == 0, "\(run.stderr)")
    let shown = scratch.appendingPathComponent("shown.png"), packaged = scratch.appendingPathComponent("packaged.png")
    _ = try Command.run(
      "ffmpeg", ["-v", "error", "-i", rotated.path, "-frames:v", "1", "-vf", "scale=\(width):\(height)", shown.path])
    _ = try Command.run(
      "ffmpeg",
      ["-v", "error", "-i", asset.appendingPathComponent("v/segment_00000.ts").path, "-frames:v", "1", packaged.path])
    let psnr = try Command.run("ffmpeg", ["-i", packaged.path, "-i", shown.path, "-lavfi", "psnr", "-f", "null", "-"])
    let average = psnr.stderr.firstMatch(of: /average:([0-9.]+|inf)/).map { String($0.1) } ?? "0"
    return average == "inf" ? 100 : Double(average) ?? 0
  }

  /// Writes the display matrix (16.16 fixed point; u, v, x, y 0, w 1) into
  /// the first track header of an MP4: the one video track. Debian's ffmpeg
  /// 5.1 cannot set a mirrored one, and front cameras and editors write them.
  static func writeDisplayMatrix(_ m: (Int32, Int32, Int32, Int32), into file: URL) throws {
    var bytes = try Data(contentsOf: file)
    guard let tkhd = bytes.firstRange(of: Data("tkhd".utf8)) else { throw FixtureError("no tkhd in \(file.path)") }
    let box = tkhd.lowerBound - 4
    // After the box header, version and flags: times, track id and duration
    // (32 bits each in version 0, some 64 in version 1), then 16 more bytes.
    var offset = box + (bytes[box + 8] == 0 ? 48 : 60)
    for value in [m.0, m.1, 0, m.2, m.3, 0, 0, 0, 0x4000_0000] as [Int32] {
      withUnsafeBytes(of: value.bigEndian) { bytes.replaceSubrange(offset..<offset + 4, with: $0) }
      offset += 4
    }
    try bytes.write(to: file)
  }

  /// Mirrored matrices (a selfie camera, an editor's flip): ffmpeg mirrors
  /// the picture when it shows it, and so must every rung.
  @Test(
    arguments: [
      ((-1, 0, 0, 1), 640, 360), ((1, 0, 0, -1), 640, 360), ((0, 1, 1, 0), 360, 640), ((0, -1, -1, 0), 360, 640),
    ] as [((Int32, Int32, Int32, Int32), Int, Int)])
  func mirroredSourcesAreShownAsPlayersShowThem(matrix: (Int32, Int32, Int32, Int32), width: Int, height: Int) throws {
    let fixed = (matrix.0 << 16, matrix.1 << 16, matrix.2 << 16, matrix.3 << 16)
    let psnr = try psnrAgainstTheShownSource(matrix: fixed, width: width, height: height)
    #expect(psnr > 35, "matrix \(matrix): \(psnr) dB")
  }

  /// `"fit": "pad"`: the picture keeps its shape between black bars, turned
  /// as shown; a 4:3 source is pillarboxed in a 16:9 rung, and so is a portrait one.
  @Test(
    arguments: [
      (["-vf", "scale=480:360,setsar=1"], 0, (x: 80, width: 480)), ([], 90, (x: 218, width: 202)),
    ] as [([String], Int, (x: Int, width: Int))])
  func paddedRungsKeepThePicturesShape(filter: [String], rotate: Int, picture: (x: Int, width: Int)) throws {
    let scratch = try ScratchFolder.make("pad\(rotate)")
    let plain = scratch.appendingPathComponent("plain.mp4"), source = scratch.appendingPathComponent("source.mp4")
    for (arguments, output) in [
      (
        ["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=2"] + filter + [
          "-c:v", "libx264", "-preset", "ultrafast",
        ], plain
      ),
      (["-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=\(rotate)"], source),
    ] {
      let made = try Command.run("ffmpeg", ["-v", "error"] + arguments + [output.path])
      guard made.status == 0 else { throw FixtureError(made.stderr) }
    }
    let (run, asset) = try Fixtures.encodeOneRung(
      source, rung: "v", width: 640, height: 360, bitrate: 1_500_000, fields: #", "fit": "pad""#, in: scratch)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(!run.stderr.contains("stretched"), "\(run.stderr)")
    // The picture between the bars is no larger than the source's (the rung is).
    #expect(!run.stderr.contains("upscaled"), "\(run.stderr)")
    let segment = asset.appendingPathComponent("v/segment_00000.ts").path
    // The bars: luma 16 (limited-range black) in every row, away from the picture's edge.
    let frame = try Command.run(
      "ffmpeg", ["-v", "error", "-i", segment, "-frames:v", "1", "-pix_fmt", "yuv420p", "-f", "rawvideo", "-"])
    let luma = Array(frame.stdout.prefix(640 * 360))
    #expect(luma.count == 640 * 360)
    for x in [0, picture.x - 4, picture.x + picture.width + 4, 639] {
      let column = (0..<360).map { Int(luma[$0 * 640 + x]) }
      #expect(
        column.allSatisfy { abs($0 - 16) <= 3 }, "column \(x) is not a black bar: \(Set(column).sorted().prefix(8))")
    }
    // The picture: what ffmpeg shows of the source, at the picture's size.
    let shown = scratch.appendingPathComponent("shown.png"), packaged = scratch.appendingPathComponent("packaged.png")
    _ = try Command.run(
      "ffmpeg", ["-v", "error", "-i", source.path, "-frames:v", "1", "-vf", "scale=\(picture.width):360", shown.path])
    _ = try Command.run(
      "ffmpeg",
      [
        "-v", "error", "-i", segment, "-frames:v", "1", "-vf", "crop=\(picture.width):360:\(picture.x):0",
        packaged.path,
      ])
    let psnr = try Command.run("ffmpeg", ["-i", packaged.path, "-i", shown.path, "-lavfi", "psnr", "-f", "null", "-"])
    let average = Double(psnr.stderr.firstMatch(of: /average:([0-9.]+)/).map { String($0.1) } ?? "0") ?? 0
    // Turned or placed wrongly, the same pattern scores about 10 dB.
    #expect(average > 25, "\(average) dB")
  }

  @Test(arguments: [(90, 360, 640), (180, 640, 360), (270, 360, 640)])
  func everyRungIsTurnedUpright(rotate: Int, width: Int, height: Int) throws {
    let psnr = try psnrAgainstTheShownSource(rotate: rotate, width: width, height: height)
    // Turned the wrong way, the same test pattern scores below 15 dB.
    #expect(psnr > 35, "rotate \(rotate): \(psnr) dB")
  }
}
