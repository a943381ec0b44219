import Foundation
import HLSPackCore
import HLSPackTestSupport
import Testing

import HLSPack

/// The fixture matrix's HDR cases, `hdr10-hevc-fmp4` and `hlg-hevc-fmp4`: the
/// labelled SDR source placed in PQ or HLG (`video_range`), HEVC Main 10, read
/// back by FFmpeg and an independent QR reader.
@Suite struct FixtureHDRTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var id: String
    var range: String
    var transfer: String
    var feature: String
    /// The 10-bit luma code of SDR's peak white: 203 cd/m² in PQ, 75 % of HLG (ITU-R BT.2408).
    var white: Int
    var testDescription: String { id }
  }

  static let cases = [
    Case(id: "hdr10-hevc-fmp4", range: "PQ", transfer: "smpte2084", feature: "hdr10", white: 573),
    Case(id: "hlg-hevc-fmp4", range: "HLG", transfer: "arib-std-b67", feature: "hlg", white: 721),
  ]

  /// Both fixtures, made once: the folder and each fixture by id.
  static let made: Result<(URL, [String: FixtureDatabase.Fixture]), Error> = Result {
    let folder = try ScratchFolder.make("hdr-fixtures").appendingPathComponent("fixtures")
    let run = try Command.run(
      try Fixtures.executable(),
      ["fixture", "make", "--output", folder.path, "--duration", "2", "--only", cases.map(\.id).joined(separator: ",")])
    guard run.status == 0 else { throw FixtureError("fixture make: \(run.stderr)") }
    let database = try FixtureDatabase.read(from: folder.appendingPathComponent("fixtures.json"))
    return (folder, Dictionary(uniqueKeysWithValues: database.fixtures.map { ($0.id, $0) }))
  }

  static func fixture(_ id: String) throws -> (master: URL, fixture: FixtureDatabase.Fixture) {
    let (folder, fixtures) = try made.get()
    let fixture = try #require(fixtures[id])
    return (folder.appendingPathComponent(fixture.master), fixture)
  }

  @Test(arguments: cases)
  func theMasterAndTheStreamSayTheRange(_ hdr: Case) throws {
    let (master, fixture) = try Self.fixture(hdr.id)
    #expect(fixture.frames == 50)
    #expect(fixture.features == ["clear", "fmp4", "hevc", hdr.feature])
    let variants = try PlaylistReader(contentsOf: master).variants
    #expect(variants.count == 1)
    #expect(variants.first?.attributes["VIDEO-RANGE"] == hdr.range, "\(variants)")
    #expect(variants.first?.attributes["CODECS"]?.hasPrefix("hvc1.2.4.L") == true, "Main 10: \(variants)")
    let probe = try HDREncodeTests.probe(master.deletingLastPathComponent().appendingPathComponent("360p/index.m3u8"))
    for field in [
      "profile=Main 10", "pix_fmt=yuv420p10le", "color_transfer=\(hdr.transfer)", "color_primaries=bt2020",
      "color_space=bt2020nc",
    ] {
      #expect(probe.contains(field), "\(probe)")
    }
    if hdr.range == "PQ" {
      // The SDR display it was made for, at the reference white; MaxCLL and MaxFALL unknown (0).
      #expect(
        probe.contains("side_data_type=Mastering display metadata") && probe.contains("max_luminance=2030000/10000")
          && probe.contains("max_content=0"), "\(probe)")
    } else {
      #expect(!probe.contains("Mastering display") && !probe.contains("Content light"), "HLG has none: \(probe)")
    }
    let verified = try Command.run(try Fixtures.executable(), ["verify", master.path])
    #expect(verified.status == 0, "\(verified.text)\(verified.stderr)")
  }

  /// SDR's peak white (most of the labelled source's bright pixels, and the
  /// labels) lands on the range's reference white, give or take the
  /// encoder's error, and every label still reads as a QR code.
  @Test(arguments: cases)
  func whiteIsTheReferenceWhiteAndEveryLabelReads(_ hdr: Case) throws {
    let media = try Self.fixture(hdr.id).master.deletingLastPathComponent().appendingPathComponent("360p/index.m3u8")
    let decode = try Command.run(
      "ffmpeg",
      ["-nostdin", "-v", "error", "-i", media.path, "-map", "0:v:0", "-frames:v", "1", "-f", "rawvideo",
       "-pix_fmt", "yuv420p10le", "-"])
    let bytes = [UInt8](decode.stdout.prefix(640 * 360 * 2))
    var counts = [Int](repeating: 0, count: 1024)
    for i in stride(from: 0, to: bytes.count - 1, by: 2) { counts[min(1023, Int(bytes[i]) | Int(bytes[i + 1]) << 8)] += 1 }
    let brightest = (hdr.white - 100..<1024).max { counts[$0] < counts[$1] } ?? 0
    #expect(abs(brightest - hdr.white) <= 7, "the commonest luma code near white: \(brightest)")
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
