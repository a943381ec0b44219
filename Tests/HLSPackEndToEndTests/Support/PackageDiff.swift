import Foundation
import HLSPackTestSupport
import Testing

/// Compares two versions of an HLS package for the `rewrite-keys` tests,
/// without using the rewriter's own parser.
enum PackageDiff {
  /// Relative paths of every regular file below `folder`, sorted.
  static func files(in folder: URL) throws -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: folder.path) else {
      throw FixtureError("cannot list \(folder.path)")
    }
    var files: [String] = []
    while let path = walker.nextObject() as? String {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder),
        !isFolder.boolValue
      {
        files.append(path)
      }
    }
    return files.sorted()
  }

  static func playlists(in folder: URL) throws -> [String] { try files(in: folder).filter { $0.hasSuffix(".m3u8") } }

  /// Media playlists (those with segments), for decoding.
  static func mediaPlaylists(in folder: URL) throws -> [String] {
    try playlists(in: folder).filter {
      String(decoding: try Data(contentsOf: folder.appendingPathComponent($0)), as: UTF8.self).contains("#EXTINF:")
    }
  }

  /// Copies a package to a fresh scratch folder, keeping its folder name (the `{asset}`).
  static func copy(_ package: URL, scratch: String = #function) throws -> URL {
    let copy = try ScratchFolder.make(scratch).appendingPathComponent(package.lastPathComponent)
    try FileManager.default.copyItem(at: package, to: copy)
    return copy
  }

  /// Lines with their terminators ("\n", "\r\n"), so a changed line ending is a difference.
  static func rawLines(_ url: URL) throws -> [String] {
    let bytes = Array(try Data(contentsOf: url))
    var lines: [String] = []
    var start = 0
    for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") {
      lines.append(String(decoding: bytes[start...i], as: UTF8.self))
      start = i + 1
    }
    if start < bytes.count { lines.append(String(decoding: bytes[start...], as: UTF8.self)) }
    return lines
  }

  /// The value of `URI="…"` at the start of a key tag's attribute list or after a comma.
  static func keyURI(_ line: String) -> String? {
    guard line.hasPrefix("#EXT-X-KEY:") || line.hasPrefix("#EXT-X-SESSION-KEY:") else { return nil }
    return line.firstMatch(of: /[:,]URI="([^"]*)"/).map { String($0.output.1) }
  }

  /// Checks that every playlist of `after` has the lines of the same playlist
  /// in `before`, except for the URI values of key tags, and returns the new
  /// key URIs by playlist (in order of appearance).
  @discardableResult
  static func expectOnlyKeyURIsChanged(before: URL, after: URL, sourceLocation: SourceLocation = #_sourceLocation)
    throws -> [String: [String]]
  {
    let playlists = try Self.playlists(in: before)
    #expect(try Self.playlists(in: after) == playlists, sourceLocation: sourceLocation)
    var newURIs: [String: [String]] = [:]
    for path in playlists {
      let old = try rawLines(before.appendingPathComponent(path))
      let new = try rawLines(after.appendingPathComponent(path))
      #expect(old.count == new.count, "\(path): line count changed", sourceLocation: sourceLocation)
      for (a, b) in zip(old, new) {
        if let uri = keyURI(b) { newURIs[path, default: []].append(uri) }
        guard a != b else { continue }
        let blank = { (line: String) in line.replacing(/([:,]URI=")[^"]*"/) { "\($0.output.1)\"" } }
        #expect(
          keyURI(a) != nil && blank(a) == blank(b), "\(path): not only the key URI changed:\n  \(a)\n  \(b)",
          sourceLocation: sourceLocation)
      }
    }
    return newURIs
  }

  /// Every file of `before` other than playlists, keys.json and keys/ is byte-identical in `after`.
  static func expectSegmentsUnchanged(before: URL, after: URL, sourceLocation: SourceLocation = #_sourceLocation) throws
  {
    var compared = 0
    for path in try files(in: before) where !path.hasSuffix(".m3u8") && path != "keys.json" && !path.hasPrefix("keys/")
    {
      let a = try Data(contentsOf: before.appendingPathComponent(path))
      let b = try? Data(contentsOf: after.appendingPathComponent(path))
      #expect(a == b, "\(path) changed", sourceLocation: sourceLocation)
      if path.hasSuffix(".ts") { compared += 1 }
    }
    #expect(compared > 0, "no segment compared", sourceLocation: sourceLocation)
  }

  /// `ffmpeg -v error` decodes every media playlist with nothing on stderr.
  static func expectDecodes(_ package: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let media = try mediaPlaylists(in: package)
    #expect(!media.isEmpty, sourceLocation: sourceLocation)
    for path in media {
      let decode = try Command.run(
        "ffmpeg",
        [
          "-v", "error", "-allowed_extensions", "ALL", "-i", package.appendingPathComponent(path).path, "-f", "null",
          "-",
        ])
      #expect(
        decode.status == 0 && decode.stderr.isEmpty, "ffmpeg on \(path): \(decode.stderr)",
        sourceLocation: sourceLocation)
    }
  }
}
