import Foundation
import HLSPackTestSupport
import Testing

/// HDR sources encoded to HEVC Main 10: colours, HDR10 metadata and
/// VIDEO-RANGE kept; rungs that would need tone mapping refused.
@Suite("HDR encoding")
struct HDREncodeTests {
  /// Makes the source (ffmpeg arguments) and encodes it with `rungs`; the run and the asset.
  static func encode(
    _ name: String, source arguments: [String], rungs: [String], container: String = "fmp4",
    method: String = "aes-128"
  ) throws -> (run: CommandResult, asset: URL) {
    let scratch = try ScratchFolder.make("hdr")
    let source = scratch.appendingPathComponent(name)
    try Fixtures.ffmpeg(arguments + [source.path])
    let profile = scratch.appendingPathComponent("profile.json")
    try Data(
      #"{"version": 1, "segment": {"duration": 1, "container": "\#(container)"}, "video": [\#(rungs.joined(separator: ", "))], "encryption": {"method": "\#(method)"}}"#
        .utf8
    ).write(to: profile)
    let output = scratch.appendingPathComponent("out")
    let run = try Command.run(
      try Fixtures.executable(), ["encode", "--profile", profile.path, "--output", output.path, source.path])
    return (run, output.appendingPathComponent(source.deletingPathExtension().lastPathComponent))
  }

  static let rungs = [
    #"{"name": "hi", "width": 320, "height": 180, "bitrate": 300000, "codec": "hevc", "preset": "ultrafast"}"#,
    #"{"name": "lo", "width": 160, "height": 90, "bitrate": 100000, "codec": "hevc", "preset": "ultrafast"}"#,
  ]

  static func probe(_ playlist: URL) throws -> String {
    try Command.run(
      "ffprobe",
      [
        "-v", "error", "-allowed_extensions", "ALL", "-select_streams", "v:0", "-read_intervals", "%+#1",
        "-show_entries",
        "stream=profile,pix_fmt,color_transfer,color_primaries,color_space:frame_side_data=side_data_type,max_content,max_luminance",
        "-of", "default=nw=1", playlist.path,
      ]
    ).text
  }

  @Test(arguments: [("PQ", "smpte2084", "fmp4"), ("HLG", "arib-std-b67", "ts")])
  func main10RungsKeepTheRangeColoursAndMetadata(range: String, transfer: String, container: String) throws {
    let source = range == "PQ" ? CopyModeTests.hdr10Arguments : CopyModeTests.tenBitHEVC(transfer: transfer)
    let (run, asset) = try Self.encode("\(range).mp4", source: source, rungs: Self.rungs, container: container)
    #expect(run.status == 0, "\(run.stderr)")
    let master = try PlaylistReader(contentsOf: asset.appendingPathComponent("master.m3u8"))
    #expect(master.variants.count == 2)
    for variant in master.variants {
      #expect(variant.attributes["VIDEO-RANGE"] == range, "\(variant.attributes)")
      #expect(variant.attributes["CODECS"]?.hasPrefix("hvc1.2.4.L") == true, "Main 10: \(variant.attributes)")
      let probe = try Self.probe(asset.appendingPathComponent(variant.uri))
      for field in [
        "profile=Main 10", "pix_fmt=yuv420p10le", "color_transfer=\(transfer)", "color_primaries=bt2020",
        "color_space=bt2020nc",
      ] {
        #expect(probe.contains(field), "\(variant.uri): \(probe)")
      }
      if range == "PQ" {
        #expect(
          probe.contains("max_luminance=10000000/10000") && probe.contains("max_content=1000"),
          "HDR10 metadata of the source: \(probe)")
      }
    }
    let iFrameLines = try String(contentsOf: asset.appendingPathComponent("master.m3u8"), encoding: .utf8)
      .split(separator: "\n").filter { $0.hasPrefix("#EXT-X-I-FRAME-STREAM-INF:") }
    #expect(iFrameLines.count == 2 && iFrameLines.allSatisfy { $0.contains("VIDEO-RANGE=\(range)") })
    let verified = try Command.run(
      try Fixtures.executable(), ["verify", asset.appendingPathComponent("master.m3u8").path])
    #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
  }

  /// An 8-bit or SDR rung of an HDR source is refused, naming the profile field; nothing is published.
  @Test(arguments: [
    (
      #"{"name": "avc", "width": 320, "height": 180, "bitrate": 300000, "preset": "ultrafast"}"#,
      "$.video[1].codec \"h264\""
    ),
    (
      #"{"name": "main", "width": 320, "height": 180, "bitrate": 300000, "codec": "hevc", "profile": "main"}"#,
      "$.video[1].profile \"main\""
    ),
    (
      #"{"name": "sdr", "width": 320, "height": 180, "bitrate": 300000, "codec": "hevc", "video_range": "sdr"}"#,
      "$.video[1].video_range \"sdr\" would need tone mapping"
    ),
  ])
  func eightBitRungsAreRefused(rung: String, field: String) throws {
    let (run, asset) = try Self.encode(
      "pq.mp4", source: CopyModeTests.tenBitHEVC(transfer: "smpte2084"), rungs: [Self.rungs[0], rung])
    #expect(run.status == 1)
    #expect(run.stderr.contains("pq.mp4: video stream #0 is HDR (PQ)") && run.stderr.contains(field), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: asset.path))
  }

  /// An SDR source whose colours zscale cannot convert (the SMPTE ST 2085
  /// matrix) fails with a message naming them and the field; nothing is published.
  @Test func anSDRSourceOfColoursZscaleCannotConvertIsRefused() throws {
    let (run, asset) = try Self.encode(
      "st2085.mp4",
      source: [
        "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=1", "-c:v", "libx264", "-preset", "ultrafast",
        "-pix_fmt", "yuv420p", "-colorspace", "smpte2085",
      ],
      rungs: [#"{"name": "pq", "width": 320, "height": 180, "bitrate": 300000, "codec": "hevc", "preset": "ultrafast", "video_range": "pq"}"#],
      method: "none")
    #expect(run.status == 1)
    #expect(
      run.stderr.contains("st2085.mp4: rung pq: zscale cannot place a picture of matrix smpte2085")
        && run.stderr.contains(#"video_range "pq""#), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: asset.path))
  }
}
