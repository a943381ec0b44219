import Foundation
import HLSPackCore
import HLSPackMedia
import HLSPackTestSupport
import Testing

/// Labels burned into each rung after scaling (`"labels": true`), on the
/// labelled source libavfilter synthesises: read back by an independent QR
/// reader from the package as FFmpeg decodes it.
@Suite("Frame labels")
struct FrameLabelTests {
  static let rate = FrameRate(numerator: 25, denominator: 1)
  static let frames = 60

  /// A 2.4 s labelled source, and the package `hlspack encode` makes of it
  /// with labels on: a 360p and a 180p rung.
  static let package: Result<URL, Error> = Result {
    let folder = try ScratchFolder.make("frame-labels")
    let source = folder.appendingPathComponent("labelled.mkv")
    try LabelledSource.write(
      LabelledSourceSpec(
        width: 640, height: 360, rate: rate, frameCount: frames, syncFrames: [30],
        audioTracks: [.init(language: "eng", toneHertz: 440)]),
      to: source.path)
    let profile = folder.appendingPathComponent("profile.json")
    try Data(
      """
      {"version": 1, "labels": true, "segment": {"duration": 2},
       "video": [{"name": "360p", "width": 640, "height": 360, "bitrate": 800000, "preset": "ultrafast"},
                 {"name": "180p", "width": 320, "height": 180, "bitrate": 250000, "preset": "ultrafast"}],
       "audio": {"codec": "aac", "bitrate": 96000, "channels": 2}}
      """.utf8
    ).write(to: profile)
    let run = try Command.run(
      try Fixtures.executable(),
      ["encode", "--profile", profile.path, "--output", folder.path, "--progress", "none", "--seed", "labels", source.path])
    guard run.status == 0 else { throw FixtureError("encode: \(run.stderr)") }
    return folder.appendingPathComponent("labelled")
  }

  @Test(arguments: [("360p", 640, 360), ("180p", 320, 180)])
  func everyFrameCarriesItsLabelAsAQRCode(rung: String, width: Int, height: Int) throws {
    let folder = try Self.package.get()
    guard let python = IndependentQRReader.python else {
      print("skipped: zxing-cpp is not installed and pip could not install it (scripts/bootstrap installs it)")
      return
    }
    let texts = try IndependentQRReader.read(
      folder.appendingPathComponent("\(rung)/index.m3u8"), width: width, height: height, python: python)
    #expect(texts.count == Self.frames)
    let expected = (0..<Self.frames).map { LabelPayload(rendition: rung, frame: $0, rate: Self.rate).description }
    let read = zip(texts, expected).filter { $0 == $1 }.count
    print("\(rung): zxing-cpp read \(read) of \(texts.count) labels")
    #expect(read == Self.frames, "\(zip(texts, expected).filter { $0 != $1 }.prefix(3))")
  }

  @Test func theSyncFrameFlashesWhiteAtTheTop() throws {
    let folder = try Self.package.get()
    let decode = try Command.run(
      "ffmpeg",
      ["-nostdin", "-v", "error", "-i", folder.appendingPathComponent("180p/index.m3u8").path, "-vf",
       "crop=iw:ih/8:0:0,scale=32:4,format=gray", "-f", "rawvideo", "-"])
    let bytes = [UInt8](decode.stdout)
    let means = stride(from: 0, to: bytes.count, by: 128).map { start in
      bytes[start..<min(bytes.count, start + 128)].reduce(0) { $0 + Int($1) } / 128
    }
    let white = means.indices.filter { means[$0] > 220 }
    #expect(white == [30], "frames whose top eighth is white: \(white)")
  }

  @Test func theLabelPayloadReadsBack() {
    let payload = LabelPayload(rendition: "360p", frame: 1234, rate: FrameRate(numerator: 30000, denominator: 1001))
    #expect(payload.description == "HLSPACK/1 r=360p f=1234 t=41174")
    #expect(LabelPayload(parsing: payload.description) == payload)
    #expect(LabelPayload(parsing: "HLSPACK/2 r=360p f=1 t=2") == nil)
  }
}
