import Foundation
import HLSPackTestSupport
import Testing

/// Dolby Vision profile 8 HEVC copied as it is: the RPUs stay in the samples,
/// the sample entry keeps its `dvvC`, CODECS names the base layer and
/// SUPPLEMENTAL-CODECS the Dolby Vision stream; other profiles are refused.
extension CopyModeTests {
  func encodeDolbyVision(
    _ made: DolbyVisionSource.Made, container: String = "fmp4", rung: String = #"{"name": "main", "codec": "copy"}"#
  ) throws -> (result: CommandResult, asset: URL) {
    let folder = made.source.deletingLastPathComponent()
    let profile = folder.appendingPathComponent("profile.json")
    try Data(
      #"{"version": 1, "segment": {"duration": 1, "container": "\#(container)"}, "video": [\#(rung)], "encryption": {"method": "none"}}"#
        .utf8
    ).write(to: profile)
    let output = folder.appendingPathComponent("out")
    let result = try Command.run(
      try Fixtures.executable(), ["encode", "--profile", profile.path, "--output", output.path, made.source.path])
    return (result, output.appendingPathComponent(made.source.deletingPathExtension().lastPathComponent))
  }

  /// What ffprobe reports of a file's video stream: its side data and colour transfer.
  func probedVideo(_ path: String) throws -> String {
    try Command.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries",
        "stream=codec_tag_string,color_transfer:stream_side_data", "-of", "default=nw=1", path,
      ]
    ).text
  }

  @Test(arguments: [(1, "PQ", "smpte2084", "db1p"), (4, "HLG", "arib-std-b67", "db4h")])
  func dolbyVisionProfile8IsCopiedWithItsConfigurationAndRPUs(
    compatibility: Int, range: String, transfer: String, brand: String
  ) throws {
    let made = try DolbyVisionSource.make(in: try ScratchFolder.make(), compatibility: compatibility)
    let source = try probedVideo(made.source.path)
    #expect(source.contains("side_data_type=DOVI configuration record") && source.contains("dv_profile=8"), "\(source)")
    let (run, asset) = try encodeDolbyVision(made)
    #expect(run.status == 0, "\(run.stderr)")
    let master = try PlaylistReader(contentsOf: asset.appendingPathComponent("master.m3u8"))
    let variant = try #require(master.variants.first)
    #expect(variant.attributes["VIDEO-RANGE"] == range)
    #expect(variant.attributes["CODECS"]?.hasPrefix("hvc1.2.4.L") == true, "the base layer: \(variant.attributes)")
    #expect(variant.attributes["SUPPLEMENTAL-CODECS"] == "dvh1.08.01/\(brand)", "\(variant.attributes)")
    let masterText = try String(contentsOf: asset.appendingPathComponent("master.m3u8"), encoding: .utf8)
    #expect(
      masterText.contains(#"#EXT-X-I-FRAME-STREAM-INF:"#)
        && masterText.components(separatedBy: "SUPPLEMENTAL-CODECS").count == 3,
      "\(masterText)")
    // The init section and a segment, as one file: ffprobe reads the sample entry's dvvC.
    let main = asset.appendingPathComponent("main")
    let segment = try #require(
      try FileManager.default.contentsOfDirectory(atPath: main.path).sorted().first { $0.hasSuffix(".m4s") })
    let joined = main.appendingPathComponent("joined.mp4")
    let initSection = try Data(contentsOf: main.appendingPathComponent("init.mp4"))
    try (initSection + (try Data(contentsOf: main.appendingPathComponent(segment)))).write(to: joined)
    let package = try probedVideo(joined.path)
    #expect(
      package.contains("codec_tag_string=hvc1") && package.contains("color_transfer=\(transfer)")
        && package.contains("side_data_type=DOVI configuration record") && package.contains("dv_profile=8")
        && package.contains("dv_level=1") && package.contains("dv_bl_signal_compatibility_id=\(compatibility)"),
      "\(package)")
    let verified = try Command.run(
      try Fixtures.executable(), ["verify", asset.appendingPathComponent("master.m3u8").path])
    #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
    // Bit-exact: the package decodes to the pictures of the x265 stream the RPUs were added to.
    let twinFrames = try videoFrameHashes(made.twin.path)
    let packageFrames = try videoFrameHashes(main.appendingPathComponent("index.m3u8").path)
    #expect(twinFrames.count == 50 && packageFrames == twinFrames)
    #expect(try videoFrameHashes(made.source.path) == twinFrames)
  }

  /// verify compares SUPPLEMENTAL-CODECS with the segments' dvvC.
  @Test func verifyFindsASupplementalCodecTheSegmentsDoNotCarry() throws {
    let made = try DolbyVisionSource.make(in: try ScratchFolder.make(), compatibility: 1)
    let (run, asset) = try encodeDolbyVision(made)
    #expect(run.status == 0, "\(run.stderr)")
    let masterURL = asset.appendingPathComponent("master.m3u8")
    let master = try String(contentsOf: masterURL, encoding: .utf8)
    try master.replacingOccurrences(of: "dvh1.08.01/db1p", with: "dvh1.08.01/db4h").write(
      to: masterURL, atomically: true, encoding: .utf8)
    let verified = try Command.run(try Fixtures.executable(), ["verify", masterURL.path])
    #expect(verified.status != 0)
    #expect(
      verified.text.contains("variant.supplemental-codecs-mismatch")
        && verified.text.contains(
          "SUPPLEMENTAL-CODECS names dvh1.08.01/db4h, the sample entry's configuration is profile 8, level 1, compatibility id 1: dvh1.08.01/db1p"
        ), "\(verified.text)")
  }

  /// Profiles 5 and 7 have no base layer a player without Dolby Vision shows
  /// right; MPEG-TS would not say the stream is Dolby Vision.
  @Test(arguments: [
    (5, 1, "fmp4", "cannot be copied: it is Dolby Vision profile 5; only profile 8"),
    (7, 1, "fmp4", "cannot be copied: it is Dolby Vision profile 7; only profile 8"),
    (8, 1, "ts", "is Dolby Vision profile 8, which hlspack copies into fMP4 only"),
  ])
  func otherProfilesAndTransportStreamsAreRefused(profile: Int, compatibility: Int, container: String, message: String)
    throws
  {
    var made = try DolbyVisionSource.make(in: try ScratchFolder.make(), compatibility: compatibility)
    if profile != 8 { made.source = try DolbyVisionSource.redeclared(made, profile: profile) }
    let (run, asset) = try encodeDolbyVision(made, container: container)
    #expect(run.status == 1)
    #expect(
      run.stderr.contains("\(made.source.path): rendition main: video stream #0 \(message)"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: asset.path))
  }

  /// Encoded rungs of profile 5 would show its IPT-PQ-c2 pictures in wrong colours.
  @Test func aProfile5SourceIsNotEncoded() throws {
    var made = try DolbyVisionSource.make(in: try ScratchFolder.make(), compatibility: 1)
    made.source = try DolbyVisionSource.redeclared(made, profile: 5)
    let (run, asset) = try encodeDolbyVision(
      made, rung: #"{"name": "main", "width": 320, "height": 180, "bitrate": 300000, "codec": "hevc"}"#)
    #expect(run.status == 1)
    #expect(
      run.stderr.contains(
        "\(made.source.path): video stream #0 is Dolby Vision profile 5, whose pictures are in no standard colour space"
      ),
      "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: asset.path))
  }
}
