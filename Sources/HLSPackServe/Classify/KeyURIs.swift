import Foundation
import HLSPackM3U8
import Synchronization

/// Paths that a playlist names as a key, in an EXT-X-KEY or EXT-X-SESSION-KEY
/// URI (RFC 8216bis sections 4.4.4.4 and 4.4.6.5), so that a key whose name
/// says nothing (`key.bin`, `0123abcd`) is still a key to the log and the rules.
/// Folder mode reads the folder's playlists once, the first time a request's
/// name leaves its kind open, and then each playlist as it is served; proxy
/// mode learns from the playlists it passes on.
final class KeyURIs: Sendable {
  private struct Known {
    var paths: Set<String> = []
    var scannedFolder = false
    /// The ETag of each playlist file last read, so that one is read again only once it changed.
    var readVersions: [String: String] = [:]
  }
  private let known = Mutex(Known())

  /// Whether a playlist names `relativePath` as a key; reads `folder`'s playlists first when not yet read.
  func contains(_ relativePath: String, scanning folder: ServedFolder?) -> Bool {
    known.withLock { known in
      if let folder, !known.scannedFolder {
        known.scannedFolder = true
        known.paths.formUnion(Self.scan(folder))
      }
      return known.paths.contains(relativePath)
    }
  }

  /// Remembers the key paths of a playlist served at `relativePath`.
  func learn(playlist: String, at relativePath: String) {
    let paths = Self.keyPaths(in: playlist, at: relativePath)
    guard !paths.isEmpty else { return }
    known.withLock { $0.paths.formUnion(paths) }
  }

  /// Remembers the key paths of the playlist file at `realPath`, served at `relativePath`:
  /// playlists written after the folder was read count from their first request. A playlist
  /// served again unchanged is not read again.
  func learn(playlistFile realPath: String, at relativePath: String) {
    guard let version = FileValidators(realPath: realPath)?.etag,
      known.withLock({ $0.readVersions.updateValue(version, forKey: relativePath) != version }),
      let text = Self.read(playlistFile: realPath)
    else { return }
    learn(playlist: text, at: relativePath)
  }

  private static func read(playlistFile path: String) -> String? {
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    guard size <= PlaylistGzip.largestPlaylist, let data = FileManager.default.contents(atPath: path) else {
      return nil
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// The key URIs of `playlist` resolved against the playlist's own path (RFC 3986 section 5.2),
  /// as paths relative to the served root. A URI on an http or https host counts by its path,
  /// since a player asks whichever host it names; other schemes (`skd:`, `data:`) are never fetched here.
  static func keyPaths(in playlist: String, at relativePath: String) -> [String] {
    guard
      let encodedPath = relativePath.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed),
      let base = URL(string: "http://served.invalid/" + encodedPath)
    else { return [] }
    var paths: [String] = []
    let bytes = Array(playlist.utf8)
    for line in M3U8Line.lines(of: bytes) {
      guard let tag = M3U8Tag(bytes[line.content]), tag.name == "EXT-X-KEY" || tag.name == "EXT-X-SESSION-KEY",
        let uri = M3U8Attribute.list(bytes[tag.value]).first(where: { $0.name == "URI" && $0.quoted })?.value,
        let url = URL(string: uri, relativeTo: base)?.absoluteURL,
        let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
        let path = ServedFolder.relativePath(requestPath: url.standardized.path(percentEncoded: true)),
        !path.isEmpty
      else { continue }
      paths.append(path)
    }
    return paths
  }

  /// Every `.m3u8` file inside the folder (a link that leads out of it is
  /// not read, as it is not served), read up to the size a playlist may have.
  private static func scan(_ folder: ServedFolder) -> Set<String> {
    let root = URL(fileURLWithPath: folder.realPath.isEmpty ? "/" : folder.realPath)
    guard
      let files = FileManager.default.enumerator(
        at: root, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
    else { return [] }
    var paths: Set<String> = []
    for case let file as URL in files where file.pathExtension.lowercased() == "m3u8" {
      guard let real = folder.regularFileInside(file.path), let text = read(playlistFile: real) else { continue }
      let relative = String(file.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count))
      let trimmed = relative.hasPrefix("/") ? String(relative.dropFirst()) : relative
      paths.formUnion(keyPaths(in: text, at: trimmed))
    }
    return paths
  }
}
