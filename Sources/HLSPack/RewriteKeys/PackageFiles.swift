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

  /// Copies everything below `source` but the package paths in `except`
  /// into the existing folder `destination`, one file or folder at a time
  /// through the registry, so that an interrupt removing the copy is never outrun by it.
  static func copyContents(of source: URL, into destination: URL, except: Set<String>) throws {
    let fm = FileManager.default
    guard let walker = fm.enumerator(atPath: source.path) else {
      throw PackError.input(path: source.path, reason: "cannot list the package folder")
    }
    while let relative = walker.nextObject() as? String {
      if except.contains(relative) { continue }
      let from = source.appendingPathComponent(relative)
      let to = destination.appendingPathComponent(relative)
      let attributes: [FileAttributeKey: Any]
      do {
        attributes = try fm.attributesOfItem(atPath: from.path)
      } catch {
        throw PackError.input(path: from.path, reason: "cannot read (\(error.localizedDescription))")
      }
      let mode = (attributes[.posixPermissions] as? Int).map { mode_t($0 & 0o777) } ?? 0o644
      if attributes[.type] as? FileAttributeType == .typeRegular {
        // Created with the source's mode, so a private file (keys.json with key bytes) is never readable by others.
        try copyFile(from, to: to, mode: mode)
        continue
      }
      try StagingRegistry.shared.unlessInterrupted(at: to.path) {
        do {
          if attributes[.type] as? FileAttributeType == .typeDirectory {
            try fm.createDirectory(at: to, withIntermediateDirectories: false, attributes: [.posixPermissions: Int(mode)])
          } else {
            // A symbolic link is copied as a link (the walk does not follow it).
            try fm.copyItem(at: from, to: to)
          }
        } catch {
          throw PackError.output(path: to.path, reason: "cannot copy (\(error.localizedDescription))")
        }
      }
    }
  }

  /// Copies a regular file in pieces (segments can be large) through `FileWriter`.
  private static func copyFile(_ from: URL, to: URL, mode: mode_t) throws {
    let input: FileHandle
    do {
      input = try FileHandle(forReadingFrom: from)
    } catch {
      throw PackError.input(path: from.path, reason: "cannot read (\(error.localizedDescription))")
    }
    defer { try? input.close() }
    let output = try FileWriter(creating: to, mode: mode, exclusive: true)
    while true {
      let piece: Data
      do {
        piece = try input.read(upToCount: 1 << 20) ?? Data()
      } catch {
        throw PackError.input(path: from.path, reason: "cannot read (\(error.localizedDescription))")
      }
      if piece.isEmpty { break }
      try piece.withUnsafeBytes { try output.write($0) }
    }
    try output.close()
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
