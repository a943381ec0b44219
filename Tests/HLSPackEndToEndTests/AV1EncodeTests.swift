import Foundation
import HLSPackTestSupport
import Testing

/// AV1 rungs (`"codec": "av1"`, libsvtav1) in fMP4, clear and AES-128: the
/// packages verify, CODECS names the sequence header's profile, level, tier
/// and bit depth, each segment decodes on its own, and the AES-128 package
/// decodes (FFmpeg 5.1, libdav1d) to the same frames as its clear twin.
@Suite("AV1 encoding")
struct AV1EncodeTests {
  struct Made {
    var clear: URL
    var aes: URL
  }

  /// The 4 s clip, two tiny rungs at SVT-AV1's fastest preset, 2 s segments;
  /// the same seed for both methods, so the encodes are the same.
  static let made = Result { () throws -> Made in
    let scratch = try ScratchFolder.make("av1")
    var assets: [URL] = []
    for method in ["none", "aes-128"] {
      let profile = scratch.appendingPathComponent("\(method).json")
      try Data(
        #"""
        {"version": 1, "segment": {"duration": 2, "container": "fmp4"},
         "video": [{"name": "180p", "width": 320, "height": 180, "bitrate": 200000, "codec": "av1", "preset": 13},
                   {"name": "90p", "width": 160, "height": 90, "bitrate": 80000, "codec": "av1", "preset": 13}],
         "audio": {"codec": "aac"}, "encryption": {"method": "\#(method)"}}
        """#.utf8
      ).write(to: profile)
      let output = scratch.appendingPathComponent(method)
      let run = try Command.run(
        try Fixtures.executable(),
        ["encode", "--profile", profile.path, "--output", output.path, "--progress", "none", "--seed", "av1",
         try Fixtures.clip().path])
      guard run.status == 0 else { throw FixtureError("encode \(method): exit \(run.status): \(run.stderr)") }
      assets.append(output.appendingPathComponent("clip"))
    }
    return Made(clear: assets[0], aes: assets[1])
  }

  static func variants(_ asset: URL) throws -> [(uri: String, attributes: [String: String])] {
    try PlaylistReader(contentsOf: asset.appendingPathComponent("master.m3u8")).variants
  }

  @Test func bothPackagesVerifyAndTheirCODECSComeFromTheSequenceHeader() throws {
    let made = try Self.made.get()
    for asset in [made.clear, made.aes] {
      let verified = try Command.run(try Fixtures.executable(), ["verify", asset.appendingPathComponent("master.m3u8").path])
      #expect(verified.status == 0, "\(verified.text)\(verified.stderr)")
      let variants = try Self.variants(asset)
      #expect(variants.map(\.uri).sorted() == ["180p/index.m3u8", "90p/index.m3u8"])
      for variant in variants {
        let codecs = try #require(variant.attributes["CODECS"])
        // ffprobe reads the sequence header with FFmpeg's own parser: profile and seq_level_idx[0].
        let probe = try Command.run(
          "ffprobe",
          ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,profile,level,pix_fmt",
           "-of", "default=nw=1", made.clear.appendingPathComponent(variant.uri).path]
        ).text
        #expect(probe.contains("codec_name=av1") && probe.contains("profile=Main") && probe.contains("pix_fmt=yuv420p"), "\(probe)")
        let level = try #require(probe.split(separator: "\n").first { $0.hasPrefix("level=") }?.dropFirst(6))
        let index = try #require(Int(level))
        #expect(codecs == "av01.0.\(index < 10 ? "0" : "")\(index)M.08,mp4a.40.2", "\(variant.uri): \(probe)")
      }
      let initSection = try Data(contentsOf: asset.appendingPathComponent("180p/init.mp4"))
      #expect(initSection.range(of: Data("av01".utf8)) != nil && initSection.range(of: Data("av1C".utf8)) != nil)
    }
  }

  @Test func theAES128PackageDecodesLikeItsClearTwin() throws {
    let made = try Self.made.get()
    for rung in ["180p", "90p"] {
      let clear = try FixtureClearTwinTests.frameHashes(made.clear.appendingPathComponent("\(rung)/index.m3u8"))
      let aes = try FixtureClearTwinTests.frameHashes(made.aes.appendingPathComponent("\(rung)/index.m3u8"))
      #expect(clear["0"]?.count == Fixtures.clipFrames, "\(rung): every frame")
      #expect(aes == clear, "\(rung): frames differ from the clear twin's")
    }
  }

  /// Each segment opens on a key frame of a closed GOP: the init section and
  /// that segment alone decode to the same pictures as the whole stream.
  @Test func everySegmentDecodesOnItsOwn() throws {
    let rendition = try Self.made.get().clear.appendingPathComponent("180p")
    let whole = try Self.videoHashes(rendition.appendingPathComponent("index.m3u8"))
    let scratch = try ScratchFolder.make("av1-segments")
    var pieces: [String] = []
    let initSection = try Data(contentsOf: rendition.appendingPathComponent("init.mp4"))
    for segment in try PlaylistReader(contentsOf: rendition.appendingPathComponent("index.m3u8")).segments {
      let alone = scratch.appendingPathComponent(segment.uri.replacingOccurrences(of: ".m4s", with: ".mp4"))
      try (initSection + Data(contentsOf: rendition.appendingPathComponent(segment.uri))).write(to: alone)
      pieces += try Self.videoHashes(alone)
    }
    #expect(whole.count == Fixtures.clipFrames)
    #expect(pieces == whole)
  }

  @Test func verifyNamesAnAV01EntryThatDoesNotDescribeTheStream() throws {
    let copy = try ScratchFolder.make("av1-codecs").appendingPathComponent("clip")
    try FileManager.default.copyItem(at: try Self.made.get().clear, to: copy)
    let master = copy.appendingPathComponent("master.m3u8")
    let text = try String(contentsOf: master, encoding: .utf8)
    let declared = try #require(try Self.variants(copy).first?.attributes["CODECS"]?.split(separator: ",").first)
    let tenBit = declared.replacingOccurrences(of: ".08", with: ".10", options: .backwards)
    try text.replacingOccurrences(of: "\(declared),", with: "\(tenBit),").write(to: master, atomically: true, encoding: .utf8)
    let verified = try Command.run(try Fixtures.executable(), ["verify", master.path])
    #expect(verified.status == 1, "\(verified.text)\(verified.stderr)")
    #expect(verified.text.contains("variant.codecs-av1-mismatch"), "\(verified.text)")
    #expect(verified.text.contains("bit depth \"10\""), "\(verified.text)")
    #expect(!verified.text.contains("variant.codecs-mismatch"), "one finding, not two: \(verified.text)")
  }

  /// An MPEG-TS request is refused with the profile (exit 2); segments of a
  /// fractional number of frames once the rate is known (exit 1), since
  /// SVT-AV1's periodic key frames could not land on every boundary.
  @Test(arguments: [
    (#"{"duration": 2}"#, "", 2 as Int32, ["$.video[0].codec", "\"fmp4\""]),
    (
      #"{"duration": 2, "container": "fmp4"}"#, #", "fps": 29.97"#, 1,
      ["rung a is AV1", "2 s at 30000/1001 fps is 59.94 frames", "$.segment.duration"]
    ),
  ])
  func whatAnAV1RungCannotDoIsRefused(segment: String, fps: String, status: Int32, words: [String]) throws {
    let scratch = try ScratchFolder.make("av1-refused")
    let profile = scratch.appendingPathComponent("refused.json")
    try Data(
      #"{"version": 1, "segment": \#(segment), "video": [{"name": "a", "width": 160, "height": 90, "bitrate": 80000, "codec": "av1"\#(fps)}]}"#
        .utf8
    ).write(to: profile)
    let output = scratch.appendingPathComponent("out")
    let run = try Command.run(
      try Fixtures.executable(), ["encode", "--profile", profile.path, "--output", output.path, try Fixtures.clip().path])
    #expect(run.status == status)
    for word in words { #expect(run.stderr.contains(word), "\(run.stderr)") }
    #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("clip").path))
  }

  /// `ffmpeg -f framemd5`'s video hashes, in decoding order, of a playlist or an MP4 file.
  static func videoHashes(_ input: URL) throws -> [String] {
    let playlist = input.pathExtension == "m3u8" ? ["-allowed_extensions", "ALL"] : []
    let run = try Command.run(
      "ffmpeg", ["-nostdin", "-v", "error"] + playlist + ["-i", input.path, "-map", "0:v", "-f", "framemd5", "-"])
    guard run.status == 0, run.stderr.isEmpty else {
      throw FixtureError("ffmpeg \(input.path): exit \(run.status): \(run.stderr)")
    }
    return run.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
      $0.split(separator: ",").last?.trimmingCharacters(in: .whitespaces)
    }
  }
}
