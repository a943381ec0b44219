import Foundation
import HLSPackCore
import HLSPackTestSupport
import Testing

import HLSPack

/// The fixture matrix's `hdr10-hevc-fmp4`: the labelled SDR source placed in
/// PQ (`video_range: "pq"`), HEVC Main 10 with HDR10 metadata, read back by
/// FFmpeg and an independent QR reader.
@Suite struct FixtureHDR10Tests {
  static let made: Result<(URL, FixtureDatabase.Fixture), Error> = Result {
    let folder = try ScratchFolder.make("hdr10-fixture").appendingPathComponent("fixtures")
    let run = try Command.run(
      try Fixtures.executable(),
      ["fixture", "make", "--output", folder.path, "--duration", "2", "--only", "hdr10-hevc-fmp4"])
    guard run.status == 0 else { throw FixtureError("fixture make: \(run.stderr)") }
    let database = try FixtureDatabase.read(from: folder.appendingPathComponent("fixtures.json"))
    guard let fixture = database.fixtures.first else { throw FixtureError("fixtures.json lists no fixture") }
    return (folder, fixture)
  }

  @Test func theMasterAndTheStreamSayPQ() throws {
    let (folder, fixture) = try Self.made.get()
    #expect(fixture.id == "hdr10-hevc-fmp4" && fixture.frames == 50)
    #expect(fixture.features == ["clear", "fmp4", "hevc", "hdr10"])
    let master = folder.appendingPathComponent(fixture.master)
    let variants = try PlaylistReader(contentsOf: master).variants
    #expect(variants.count == 1)
    #expect(variants.first?.attributes["VIDEO-RANGE"] == "PQ", "\(variants)")
    #expect(variants.first?.attributes["CODECS"]?.hasPrefix("hvc1.2.4.L") == true, "Main 10: \(variants)")
    let probe = try HDREncodeTests.probe(master.deletingLastPathComponent().appendingPathComponent("360p/index.m3u8"))
    for field in [
      "profile=Main 10", "pix_fmt=yuv420p10le", "color_transfer=smpte2084", "color_primaries=bt2020",
      "color_space=bt2020nc", "side_data_type=Mastering display metadata", "max_luminance=2030000/10000",
      "max_content=0",
    ] {
      #expect(probe.contains(field), "\(probe)")
    }
    let verified = try Command.run(try Fixtures.executable(), ["verify", master.path])
    #expect(verified.status == 0, "\(verified.text)\(verified.stderr)")
  }

  /// SDR's peak white (most of the labelled source's bright pixels, and the
  /// labels) lands on the 10-bit PQ code of 203 cd/m² (573, give or take the
  /// encoder's error), and every label still reads as a QR code.
  @Test func whiteIsTheReferenceWhiteAndEveryLabelReads() throws {
    let (folder, fixture) = try Self.made.get()
    let media = folder.appendingPathComponent(fixture.master).deletingLastPathComponent()
      .appendingPathComponent("360p/index.m3u8")
    let decode = try Command.run(
      "ffmpeg",
      ["-nostdin", "-v", "error", "-i", media.path, "-map", "0:v:0", "-frames:v", "1", "-f", "rawvideo",
       "-pix_fmt", "yuv420p10le", "-"])
    let bytes = [UInt8](decode.stdout.prefix(640 * 360 * 2))
    var counts = [Int](repeating: 0, count: 1024)
    for i in stride(from: 0, to: bytes.count - 1, by: 2) { counts[min(1023, Int(bytes[i]) | Int(bytes[i + 1]) << 8)] += 1 }
    let brightest = (500..<1024).max { counts[$0] < counts[$1] } ?? 0
    #expect((566...580).contains(brightest), "the commonest luma code above 500: \(brightest)")
    guard let python = IndependentQRReader.python else {
      print("skipped: zxing-cpp is not installed and pip could not install it (scripts/bootstrap installs it)")
      return
    }
    let texts = try IndependentQRReader.read(media, width: 640, height: 360, python: python)
    let rate = FrameRate(numerator: 25, denominator: 1)
    let expected = (0..<50).map { LabelPayload(rendition: "360p", frame: $0, rate: rate).description }
    #expect(texts == expected, "\(zip(texts, expected).filter { $0 != $1 }.prefix(3))")
  }
}
