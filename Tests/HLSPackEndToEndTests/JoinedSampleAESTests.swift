import Foundation
import HLSPackTestSupport
import Testing

/// SAMPLE-AES content between clear pre-rolls (TS: H.264 and AAC sample
/// encryption; fMP4: `cbcs`), and its key URIs rewritten for an app.
/// FFmpeg, the one client here that decrypts SAMPLE-AES, crashes or decodes
/// garbage when a playlist switches from clear to SAMPLE-AES (docs/players.md),
/// so each part between discontinuities is decoded as a playlist of its own
/// and compared with the same part of the clear twin.
@Suite("Inputs joined from parts: SAMPLE-AES")
struct JoinedSampleAESTests {
  @Test(arguments: ["ts", "fmp4"])
  func eachPartDecodesLikeTheClearTwin(container: String) throws {
    let folder = try ScratchFolder.make("joined-sample-aes-\(container)")
    let preRoll = try JoinedInputTests.preRoll()
    let parts = [(preRoll, true), (try Fixtures.clip(), false), (preRoll, true)]
    let (run, asset) = try JoinedInputTests.encode(
      parts, container: container, encryption: #"{"method": "sample-aes", "seed": "joined"}"#,
      in: folder.appendingPathComponent("protected"))
    try #require(run.status == 0, "\(run.stderr)")
    let twin = try JoinedInputTests.encode(
      parts, container: container, encryption: #"{"method": "none"}"#, in: folder.appendingPathComponent("twin"))
    try #require(twin.run.status == 0, "\(twin.run.stderr)")
    let verified = try Command.run(try Fixtures.executable(), ["verify", asset.path])
    #expect(verified.status == 0, "\(verified.text)\(verified.stderr)")

    for rung in ["high", "low"] {
      let media = try JoinedInputTests.entries(asset.appendingPathComponent("\(rung)/index.m3u8"))
      #expect(media.segments.map(\.method) == ["NONE", "NONE"] + Array(repeating: "SAMPLE-AES", count: 4) + ["NONE", "NONE"])
      if container == "fmp4" {
        // The pre-roll after the content refers to the first pre-roll's clear init segment.
        let maps = try PlaylistReader(contentsOf: asset.appendingPathComponent("\(rung)/index.m3u8")).values(of: "#EXT-X-MAP")
        #expect(maps == [#"URI="init.mp4""#, #"URI="init_1.mp4""#, #"URI="init.mp4""#], "\(rung)")
      }
      let ours = try Self.partPlaylists(asset.appendingPathComponent("\(rung)/index.m3u8"))
      let theirs = try Self.partPlaylists(twin.asset.appendingPathComponent("\(rung)/index.m3u8"))
      #expect(ours.count == 3 && theirs.count == 3)
      for (index, (part, twinPart)) in zip(ours, theirs).enumerated() {
        // FFmpeg's SAMPLE-AES TS defect (docs/players.md): the last access unit of an encrypted part.
        let defect = container == "ts" && index == 1
        let decoded = try FixtureClearTwinTests.frameHashes(part, decodeErrors: defect)
        let clear = try FixtureClearTwinTests.frameHashes(twinPart)
        #expect(decoded["0"]?.count == clear["0"]?.count && decoded["1"] == clear["1"], "\(rung) part \(index)")
        let compared = (clear["0"]?.count ?? 0) - (defect ? 1 : 0)
        #expect(decoded["0"]?.prefix(compared) == clear["0"]?.prefix(compared), "\(rung) part \(index)")
      }
    }

    // Key URIs rewritten for an app: METHOD=NONE stays, the content's tags
    // take the new URI, and the package verifies with the keys.json the rewrite wrote.
    let rewritten = folder.appendingPathComponent("rewritten")
    let rewrite = try Command.run(
      try Fixtures.executable(), ["rewrite-keys", asset.path, "--uri", "myapp-key://{key_id}", "--output", rewritten.path])
    try #require(rewrite.status == 0, "\(rewrite.stderr)")
    let keyTags = try PlaylistReader(contentsOf: rewritten.appendingPathComponent("high/index.m3u8")).lines
      .filter { $0.hasPrefix("#EXT-X-KEY:") }
    #expect(keyTags.count == 2 && keyTags[1] == "#EXT-X-KEY:METHOD=NONE", "\(keyTags)")
    #expect(keyTags.first?.contains(#"URI="myapp-key://"#) == true, "\(keyTags)")
    let again = try Command.run(
      try Fixtures.executable(),
      ["verify", rewritten.path, "--keys", rewritten.appendingPathComponent("keys.json").path])
    #expect(again.status == 0, "\(again.text)\(again.stderr)")
  }

  /// One playlist per run of segments between EXT-X-DISCONTINUITY tags, each
  /// with the media playlist's header, its own key and map tags, and an end.
  static func partPlaylists(_ playlist: URL) throws -> [URL] {
    let lines = try PlaylistReader(contentsOf: playlist).lines
    let headerEnd = try #require(lines.firstIndex(of: "#EXT-X-PLAYLIST-TYPE:VOD")) + 1
    var parts: [[String]] = [[]]
    for line in lines[headerEnd...] where line != "#EXT-X-ENDLIST" && !line.isEmpty {
      if line == "#EXT-X-DISCONTINUITY" { parts.append([]) } else { parts[parts.count - 1].append(line) }
    }
    // fMP4: a part that opens without its own EXT-X-MAP keeps the one before it.
    var map: String?
    return try parts.enumerated().map { index, body in
      map = body.first { $0.hasPrefix("#EXT-X-MAP:") } ?? map
      let withMap = body.contains { $0.hasPrefix("#EXT-X-MAP:") } ? body : (map.map { [$0] } ?? []) + body
      let url = playlist.deletingLastPathComponent().appendingPathComponent("part\(index).m3u8")
      try Data((Array(lines[..<headerEnd]) + withMap + ["#EXT-X-ENDLIST", ""]).joined(separator: "\n").utf8)
        .write(to: url)
      return url
    }
  }
}
