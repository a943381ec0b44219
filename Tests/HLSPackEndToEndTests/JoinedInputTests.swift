import Foundation
import HLSPack
import HLSPackTestSupport
import Testing

/// An `inputs` entry made of parts: a clear pre-roll (320x240, 2 s) and the
/// content (the 640x360 clip, 4 s) packaged one after another into one
/// asset, every part fitted to both rungs, with EXT-X-DISCONTINUITY between
/// them, METHOD=NONE over clear parts after encrypted ones, and
/// EXT-X-DISCONTINUITY-SEQUENCE in every playlist (RFC 8216bis §4.4.3.3,
/// §4.4.4.3, §4.4.4.4).
@Suite("Inputs joined from parts")
struct JoinedInputTests {
  /// The pre-roll: another size, another tone, stereo, keyframes every second.
  static func preRoll() throws -> URL {
    let url = try ScratchFolder.make("joined-preroll").appendingPathComponent("preroll.mp4")
    try Fixtures.ffmpeg([
      "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25:duration=2",
      "-f", "lavfi", "-i", "sine=frequency=880:sample_rate=48000:duration=2", "-ac", "2",
      "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac", url.path,
    ])
    return url
  }

  /// `parts`: (file, clear) in order. Encodes asset "show" reproducibly; the run and the asset folder.
  static func encode(
    _ parts: [(URL, Bool)], container: String, encryption: String, rungs: [String] = Fixtures.defaultRungs,
    audio: String = #"{"codec": "aac", "bitrate": 96000, "channels": 2, "sample_rate": 48000}"#,
    segmentFields: String = "", in folder: URL
  ) throws -> (run: CommandResult, asset: URL) {
    let list = try parts.map { file, clear in
      let part: [String: String] = clear ? ["file": file.path, "encryption": "none"] : ["file": file.path]
      return String(decoding: try JSONSerialization.data(withJSONObject: part), as: UTF8.self)
    }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let profile = folder.appendingPathComponent("profile.json")
    try Data(
      """
      {"version": 1, "inputs": [{"asset": "show", "parts": [\(list.joined(separator: ", "))]}],
       "segment": {"duration": 1, "container": "\(container)"\(segmentFields)},
       "video": [\(rungs.joined(separator: ", "))], "audio": \(audio), "encryption": \(encryption)}
      """.utf8
    ).write(to: profile)
    let output = folder.appendingPathComponent("out")
    let run = try Command.run(
      try Fixtures.executable(),
      ["encode", "--profile", profile.path, "--output", output.path, "--reproducible", "--progress", "none"])
    return (run, output.appendingPathComponent("show"))
  }

  /// Each segment's (discontinuity before it, METHOD in force, EXTINF) and
  /// whether EXT-X-DISCONTINUITY-SEQUENCE:0 precedes every segment.
  static func entries(_ playlist: URL) throws -> (
    segments: [(discontinuity: Bool, method: String, duration: Double)], sequenceFirst: Bool
  ) {
    let lines = try PlaylistReader(contentsOf: playlist).lines
    var segments: [(Bool, String, Double)] = []
    var discontinuity = false
    var method = "NONE"
    var duration = 0.0
    for line in lines {
      if line == "#EXT-X-DISCONTINUITY" { discontinuity = true }
      if line.hasPrefix("#EXT-X-KEY:") { method = PlaylistReader.attributes(String(line.dropFirst(11)))["METHOD"] ?? "" }
      if line.hasPrefix("#EXTINF:") { duration = Double(line.dropFirst(8).prefix { $0 != "," }) ?? -1 }
      if !line.hasPrefix("#") {
        segments.append((discontinuity, method, duration))
        discontinuity = false
      }
    }
    let sequence = lines.firstIndex(of: "#EXT-X-DISCONTINUITY-SEQUENCE:0")
    let firstSegment = lines.firstIndex { !$0.hasPrefix("#") }
    return (segments, sequence.map { $0 < (firstSegment ?? 0) } ?? false)
  }

  /// Pre-roll (clear), content, pre-roll (clear), content, 1 s segments: the
  /// media playlists carry the discontinuities before segments 2, 6 and 8,
  /// METHOD=NONE over the second pre-roll and the key re-stated after it;
  /// the I-frame playlists the same discontinuities; the EXTINFs add up to
  /// 12 s; `verify` passes; every video and audio frame decodes as the clear
  /// twin's (the same profile without encryption), 300 pictures; the
  /// program date-times after the discontinuities run on (0, 2, 6 and 8 s
  /// after the first frame's). A copy whose low rendition lost one
  /// discontinuity fails `verify`.
  @Test(arguments: ["ts", "fmp4"])
  func clearPreRollsBetweenEncryptedContent(container: String) throws {
    let folder = try ScratchFolder.make("joined-\(container)")
    let preRoll = try Self.preRoll(), content = try Fixtures.clip()
    let parts = [(preRoll, true), (content, false), (preRoll, true), (content, false)]
    let dated = #", "program_date_time": "2026-03-01T12:00:00Z""#
    let (run, asset) = try Self.encode(
      parts, container: container, encryption: #"{"method": "aes-128", "seed": "joined"}"#, segmentFields: dated,
      in: folder.appendingPathComponent("protected"))
    try #require(run.status == 0, "\(run.stderr)")
    let expectedMethods = ["NONE", "NONE"] + Array(repeating: "AES-128", count: 4) + ["NONE", "NONE"]
      + Array(repeating: "AES-128", count: 4)
    for rung in ["high", "low"] {
      let media = try Self.entries(asset.appendingPathComponent("\(rung)/index.m3u8"))
      #expect(media.sequenceFirst, "\(rung): EXT-X-DISCONTINUITY-SEQUENCE")
      #expect(media.segments.map(\.method) == expectedMethods, "\(rung)")
      #expect(media.segments.indices.filter { media.segments[$0].discontinuity } == [2, 6, 8], "\(rung)")
      #expect(abs(media.segments.map(\.duration).reduce(0, +) - 12) < 0.001, "\(rung)")
      let iFrames = try Self.entries(asset.appendingPathComponent("\(rung)/iframes.m3u8"))
      #expect(iFrames.sequenceFirst, "\(rung)/iframes.m3u8")
      #expect(iFrames.segments.filter(\.discontinuity).count == 3, "\(rung)/iframes.m3u8")
      let text = try String(contentsOf: asset.appendingPathComponent("\(rung)/index.m3u8"), encoding: .utf8)
      #expect(text.contains("#EXT-X-DISCONTINUITY\n#EXT-X-KEY:METHOD=NONE\n"), "\(rung)")
      if container == "fmp4" {
        // No init segment is written twice: a part whose init segment equals an earlier one refers to it.
        let folder = asset.appendingPathComponent(rung)
        let maps = Set(try PlaylistReader(contentsOf: folder.appendingPathComponent("index.m3u8")).values(of: "#EXT-X-MAP"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("init") }
        #expect(maps == Set(files.map { "URI=\"\($0)\"" }), "\(rung)")
        let contents = try files.map { try Data(contentsOf: folder.appendingPathComponent($0)) }
        #expect(Set(contents).count == files.count, "\(rung): \(files)")
      }
      for playlist in ["index.m3u8", "iframes.m3u8"] {
        let times = try PlaylistReader(contentsOf: asset.appendingPathComponent("\(rung)/\(playlist)"))
          .values(of: "#EXT-X-PROGRAM-DATE-TIME")
        #expect(times == ["00", "02", "06", "08"].map { "2026-03-01T12:00:\($0).000Z" }, "\(rung)/\(playlist)")
      }
    }
    let verified = try Command.run(try Fixtures.executable(), ["verify", asset.path])
    #expect(verified.status == 0, "\(verified.text)\(verified.stderr)")

    let twin = try Self.encode(
      parts, container: container, encryption: #"{"method": "none"}"#, segmentFields: dated,
      in: folder.appendingPathComponent("twin"))
    try #require(twin.run.status == 0, "\(twin.run.stderr)")
    for rung in ["high", "low"] {
      let ours = try FixtureClearTwinTests.frameHashes(asset.appendingPathComponent("\(rung)/index.m3u8"))
      let theirs = try FixtureClearTwinTests.frameHashes(twin.asset.appendingPathComponent("\(rung)/index.m3u8"))
      #expect(ours["0"]?.count == 300, "\(rung): \(ours["0"]?.count ?? 0) pictures")
      #expect(ours == theirs, "\(rung): frames differ from the clear twin's")
    }

    if container == "ts" {
      let low = asset.appendingPathComponent("low/index.m3u8")
      var text = try String(contentsOf: low, encoding: .utf8)
      let first = try #require(text.range(of: "#EXT-X-DISCONTINUITY\n"))
      text.removeSubrange(first)
      try Data(text.utf8).write(to: low)
      let broken = try Command.run(try Fixtures.executable(), ["verify", asset.path])
      #expect(broken.status == 1)
      #expect(broken.text.contains("playlist.discontinuity-mismatch"), "\(broken.text)")
    }
  }

  /// A part that is no media fails before any work, naming the asset and the
  /// part's place in the profile; nothing is published.
  @Test func partThatDoesNotDecodeIsRefused() throws {
    let folder = try ScratchFolder.make("joined-bad")
    let bad = folder.appendingPathComponent("broken.mp4")
    try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37) }).write(to: bad)
    let (run, asset) = try Self.encode(
      [(try Self.preRoll(), true), (bad, false)], container: "ts", encryption: #"{"method": "aes-128"}"#, in: folder)
    #expect(run.status != 0)
    #expect(run.stderr.contains("broken.mp4: asset \"show\", inputs[0].parts[1].file:"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: asset.path))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
  }

  /// Packaging without re-encoding cannot fit a part to the rung: parts of
  /// two picture sizes are refused, naming the part; nothing is published.
  @Test func copiedPartsOfTwoSizesAreRefused() throws {
    let folder = try ScratchFolder.make("joined-copy")
    let (run, asset) = try Self.encode(
      [(try Self.preRoll(), true), (try Fixtures.clip(), false)], container: "ts", encryption: #"{"method": "none"}"#,
      rungs: [#"{"name": "source", "codec": "copy"}"#], audio: #"{"codec": "copy"}"#, in: folder)
    #expect(run.status != 0)
    #expect(run.stderr.contains("clip.mp4: asset \"show\", inputs[0].parts[1].file: rendition source is"), "\(run.stderr)")
    #expect(run.stderr.contains("the parts cannot share the rendition without re-encoding"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: asset.path))
  }

  /// The fixture matrix's `clear-pre-roll`: the labelled source twice in one
  /// asset, clear then AES-128; `verify` passes with the keys the database
  /// lists, `frames` counts both parts, the profile it keeps names the parts.
  @Test func fixtureCaseClearPreRoll() throws {
    let folder = try ScratchFolder.make("joined-fixture").appendingPathComponent("fixtures")
    let run = try Command.run(
      try Fixtures.executable(),
      ["fixture", "make", "--output", folder.path, "--duration", "2", "--only", "clear-pre-roll", "--keep-source"])
    try #require(run.status == 0, "\(run.stderr)")
    let database = try FixtureDatabase.read(from: folder.appendingPathComponent("fixtures.json"))
    let fixture = try #require(database.fixtures.first)
    #expect(fixture.id == "clear-pre-roll" && fixture.frames == 100)
    #expect(fixture.features == ["aes-128", "ts", "clear-pre-roll"])
    let media = try Self.entries(folder.appendingPathComponent("clear-pre-roll/labelled/360p/index.m3u8"))
    #expect(media.sequenceFirst)
    #expect(media.segments.map(\.method) == ["NONE", "AES-128"])
    #expect(media.segments.map(\.discontinuity) == [false, true])
    let verified = try Command.run(
      try Fixtures.executable(), ["verify", folder.appendingPathComponent(fixture.master).path])
    #expect(verified.status == 0, "\(verified.text)\(verified.stderr)")
    let profile = try String(contentsOf: folder.appendingPathComponent(fixture.profile), encoding: .utf8)
    // JSONSerialization writes "/" as "\/".
    #expect(profile.contains(#"..\/source\/labelled.mkv"#) && profile.contains(#""parts""#), "\(profile)")
  }
}
