import Foundation
import HLSPackTestSupport

/// Folders to serve: a small hand-made tree (bytes known to the test), and
/// real AES-128 packages of the repository's sample made once per run:
/// `hlspack encode --seed 1` without re-encoding, and the shipped ladder.
enum ServeFixtures {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var cachedPackage: URL?
  nonisolated(unsafe) private static var cachedLadder: URL?
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// 1000 bytes whose value at offset i is i % 251, so that any range's bytes are known.
  static let segmentBytes = Data((0..<1000).map { UInt8($0 % 251) })
  static let keyBytes = Data((0..<16).map { UInt8($0 * 7 + 1) })

  /// master.m3u8, src/index.m3u8, src/segment_00003.ts, audio/en/init.mp4 and segment_00001.m4s,
  /// keys/k.key, sub/en.vtt, a folder `empty`, and `escape.ts`, a link to a file outside the folder.
  static func tree() throws -> URL {
    let root = try ScratchFolder.make("tree")
    func write(_ path: String, _ data: Data) throws {
      let url = root.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try data.write(to: url)
    }
    try write(
      "master.m3u8",
      Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nsrc/index.m3u8\n".utf8))
    try write(
      "src/index.m3u8",
      Data("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nsegment_00003.ts\n#EXT-X-ENDLIST\n".utf8))
    try write("src/segment_00003.ts", segmentBytes)
    try write("audio/en/init.mp4", Data(repeating: 1, count: 100))
    try write("audio/en/segment_00001.m4s", Data(repeating: 2, count: 100))
    try write("keys/k.key", keyBytes)
    try write("sub/en.vtt", Data("WEBVTT\n".utf8))
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("empty"), withIntermediateDirectories: true)
    let outside = try ScratchFolder.make("outside").appendingPathComponent("secret.ts")
    try Data("secret".utf8).write(to: outside)
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent("escape.ts").path, withDestinationPath: outside.path)
    return root
  }

  /// The folder holding `sample/` (master.m3u8, src/, keys/): AES-128 TS, 4 s segments.
  static func aesPackage() throws -> URL {
    try lock.withLock {
      if let cachedPackage { return cachedPackage }
      let folder = try ScratchFolder.make("package")
      let input = folder.appendingPathComponent("sample.mp4")
      try FileManager.default.copyItem(at: repository.appendingPathComponent("samples/sample.mp4"), to: input)
      let profile = folder.appendingPathComponent("profile.json")
      try Data(
        #"""
        {"version": 1, "video": [{"name": "src", "codec": "copy"}], "audio": {"codec": "copy"},
         "segment": {"duration": 4}, "encryption": {"method": "aes-128"}}
        """#.utf8
      ).write(to: profile)
      let output = folder.appendingPathComponent("out")
      let run = try Command.run(
        try ServerProcess.executable(),
        ["encode", "--profile", profile.path, "--output", output.path, "--seed", "1", input.path])
      guard run.status == 0 else { throw FixtureError("hlspack encode failed: \(run.stderr)") }
      cachedPackage = output
      return output
    }
  }

  /// The folder holding `sample/` from `hlspack encode` of Profiles/ladder.json:
  /// renditions 720p, 480p, 360p and 144p, TS, AES-128, 4 s segments.
  static func ladderPackage() throws -> URL {
    try lock.withLock {
      if let cachedLadder { return cachedLadder }
      let output = try ScratchFolder.make("ladder").appendingPathComponent("out")
      let run = try Command.run(
        try ServerProcess.executable(),
        [
          "encode", "--profile", repository.appendingPathComponent("Profiles/ladder.json").path, "--output",
          output.path, "--progress", "none",
        ])
      guard run.status == 0 else { throw FixtureError("hlspack encode of Profiles/ladder.json failed: \(run.stderr)") }
      cachedLadder = output
      return output
    }
  }

  /// The key path of a rendition's media playlist, as served (`/sample/keys/….key`).
  static func keyPath(in package: URL, rendition: String = "src") throws -> String {
    let playlist = try String(
      contentsOf: package.appendingPathComponent("sample/\(rendition)/index.m3u8"), encoding: .utf8)
    guard let start = playlist.range(of: "URI=\"../"),
      let end = playlist[start.upperBound...].firstIndex(of: "\"")
    else { throw FixtureError("no key URI in sample/\(rendition)/index.m3u8") }
    return "/sample/" + playlist[start.upperBound..<end]
  }

  /// Writes a scenario file and returns its path.
  static func scenario(_ json: String) throws -> String {
    let url = try ScratchFolder.make("scenario").appendingPathComponent("scenario.json")
    try Data(json.utf8).write(to: url)
    return url.path
  }

  /// Runs the ffmpeg CLI on `url` to a null output; returns its exit status and messages.
  static func play(_ url: String, _ options: [String] = []) throws -> CommandResult {
    try Command.run(
      "ffmpeg",
      ["-hide_banner", "-nostdin", "-v", "error", "-rw_timeout", "20000000"] + options
        + ["-i", url, "-map", "0", "-f", "null", "-"])
  }
}
