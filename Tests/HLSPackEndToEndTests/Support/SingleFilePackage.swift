import Foundation
import HLSPackCore
import HLSPackTestSupport

/// Packages of the test clip made once per run by the hlspack CLI
/// (`--reproducible`, keys from a seed): one 360p rung, 1 s segments, I-frame
/// playlists, with or without `segment.single_file`.
enum SingleFilePackage {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var cache: [String: URL] = [:]

  /// The asset folder of the package.
  static func asset(container: String, method: String, singleFile: Bool) throws -> URL {
    let name = "\(container)-\(method)-\(singleFile)"
    return try lock.withLock {
      if let cached = cache[name] { return cached }
      let scratch = try ScratchFolder.make("single-file-\(name)")
      let profile = scratch.appendingPathComponent("profile.json")
      try Data(
        """
        {"version": 1,
         "segment": {"duration": 1, "container": "\(container)", "single_file": \(singleFile)},
         "video": [{"name": "360p", "width": 640, "height": 360, "bitrate": 600000, "preset": "ultrafast"}],
         "audio": {"codec": "aac", "bitrate": 96000, "channels": 2},
         "encryption": {"method": "\(method)", "seed": "single-file"}}
        """.utf8
      ).write(to: profile)
      let output = scratch.appendingPathComponent("out")
      let clip = try Fixtures.clip()
      let run = try Command.run(
        try Command.builtHlspack(),
        ["encode", "--profile", profile.path, "--output", output.path, "--reproducible", "--progress", "none",
         clip.path])
      guard run.status == 0 else { throw FixtureError("encode \(name): exit \(run.status): \(run.stderr)") }
      let asset = output.appendingPathComponent(clip.deletingPathExtension().lastPathComponent)
      cache[name] = asset
      return asset
    }
  }

  /// One range of a media playlist: its bytes in the file, and its key tag's IV.
  struct Range {
    var offset: Int
    var length: Int
    var iv: String?
  }

  /// The EXT-X-MAP range and every segment's range of a single-file media playlist.
  static func ranges(_ playlist: URL) throws -> (map: Range?, segments: [Range]) {
    let reader = try PlaylistReader(contentsOf: playlist)
    var map: Range?
    var segments: [Range] = []
    var iv: String?
    for line in reader.lines {
      if line.hasPrefix("#EXT-X-MAP:"),
        let range = PlaylistReader.attributes(String(line.dropFirst(11)))["BYTERANGE"]
      {
        map = try parse(range, iv: nil)
      } else if line.hasPrefix("#EXT-X-KEY:") {
        iv = PlaylistReader.attributes(String(line.dropFirst(11)))["IV"]
      } else if line.hasPrefix("#EXT-X-BYTERANGE:") {
        segments.append(try parse(String(line.dropFirst(17)), iv: iv))
      }
    }
    return (map, segments)
  }

  private static func parse(_ text: String, iv: String?) throws -> Range {
    let parts = text.split(separator: "@").compactMap { Int($0) }
    guard parts.count == 2 else { throw FixtureError("a range without its offset: \(text)") }
    return Range(offset: parts[1], length: parts[0], iv: iv)
  }

  /// `bytes` (one range) decrypted alone by the openssl CLI (which checks its PKCS#7 padding).
  static func decrypt(_ bytes: [UInt8], key: [UInt8], iv: String, in scratch: URL) throws -> [UInt8] {
    let input = scratch.appendingPathComponent("range-\(UUID().uuidString.prefix(8)).bin")
    try Data(bytes).write(to: input)
    let run = try Command.run(
      "openssl",
      ["enc", "-d", "-aes-128-cbc", "-K", Hex.encode(key), "-iv", String(iv.dropFirst(2)), "-in", input.path])
    guard run.status == 0 else { throw FixtureError("openssl could not decrypt a range: \(run.stderr)") }
    return Array(run.stdout)
  }

  /// `ffmpeg -f framemd5` of a clear MPEG-TS or fMP4 file, per stream index.
  static func frameHashes(ofFile file: URL) throws -> [String: [String]] {
    try FixtureClearTwinTests.frameHashes(file, inputOptions: [])
  }
}
