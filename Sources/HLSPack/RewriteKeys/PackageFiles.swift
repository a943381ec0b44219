import Foundation
import HLSPackCore

/// The file operations of `rewrite-keys`: finding playlists, copying a
/// package, and staging key files.
enum PackageFiles {
  /// Package paths of every regular `.m3u8` file below `folder`, sorted.
  /// Symbolic links are skipped: renaming over one would replace the link,
  /// not the playlist it points at.
  static func playlists(in folder: URL) throws -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: folder.path) else {
      throw PackError.input(path: folder.path, reason: "cannot list the package folder")
    }
    var found: [String] = []
    while let relative = walker.nextObject() as? String {
      guard relative.lowercased().hasSuffix(".m3u8"),
        let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(relative).path),
        attributes[.type] as? FileAttributeType == .typeRegular
      else { continue }
      found.append(relative)
    }
    return found.sorted()
  }

  static func read(_ url: URL) throws -> [UInt8] {
    do {
      return Array(try Data(contentsOf: url))
    } catch {
      throw PackError.input(path: url.path, reason: "cannot read (\(error.localizedDescription))")
    }
  }

  /// Copies every entry of `source` into the existing folder `destination`.
  static func copyContents(of source: URL, into destination: URL) throws {
    let fm = FileManager.default
    let entries: [String]
    do {
      entries = try fm.contentsOfDirectory(atPath: source.path)
    } catch {
      throw PackError.input(path: source.path, reason: "cannot list the package folder (\(error.localizedDescription))")
    }
    for name in entries.sorted() {
      do {
        try fm.copyItem(at: source.appendingPathComponent(name), to: destination.appendingPathComponent(name))
      } catch {
        throw PackError.output(
          path: destination.appendingPathComponent(name).path, reason: "cannot copy (\(error.localizedDescription))")
      }
    }
  }

  /// Stages a key at `keys/<key id>.key` (16 bytes, mode 0600). A file
  /// already there must hold the same bytes: a key id names exactly one key.
  static func stageKey(_ bytes: [UInt8], id: String, in folder: URL, _ files: FileTransaction) throws {
    let url = folder.appendingPathComponent(RewritePlan.keyFile(id))
    switch KeyLocator.readKey(at: url) {
    case .key(let existing) where existing == bytes:
      return
    case .key, .wrongSize:
      throw PackError.output(path: url.path, reason: "already holds a different key with this key id")
    case .missing:
      break
    }
    try files.makeFolder(url.deletingLastPathComponent())
    try files.write(bytes, to: url, newFileMode: 0o600)
  }
}
