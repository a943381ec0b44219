import Foundation
import HLSPackCore

/// The file operations of `rewrite-keys`: reading playlists, copying a
/// package, and staging key files.
enum PackageFiles {
  /// The largest playlist read: a playlist is held whole, with its new
  /// version, until every file is written. 16 MiB is some 100 000 segments
  /// with a key tag each, ten times a day of 2 s segments.
  static let playlistLimit = 16 << 20

  static func readPlaylist(_ url: URL) throws -> [UInt8] {
    do {
      return try SmallFile.readRegular(url.path, limit: playlistLimit, followingLinks: false)
    } catch {
      throw PackError.input(path: url.path, reason: "cannot read the playlist \(error.reason)")
    }
  }

  enum InsideFile {
    case missing
    /// The real path, outside the package.
    case outside(String)
    /// Why not, in parentheses: "(not a regular file: a named pipe)", "(20 bytes, larger than 16 bytes)".
    case unreadable(String)
    case bytes([UInt8])
  }

  /// Reads a regular file that, with every symbolic link resolved, lies
  /// inside `package`: a file a package names (a key, keys.json) may be
  /// reached through links in the package, but never one elsewhere on the
  /// machine. What the file is, is told before where it is, and both are
  /// checked before anything is opened.
  static func readInside(_ url: URL, package: URL, limit: Int) -> InsideFile {
    let real: String
    switch resolveInside(url, package: package) {
    case .missing: return .missing
    case .outside(let path): return .outside(path)
    case .notRegular(let kind): return .unreadable("(not a regular file: \(kind))")
    case .inside(let path): real = path
    }
    do {
      return .bytes(try SmallFile.readRegular(real, limit: limit, followingLinks: false))
    } catch {
      return .unreadable(error.reason)
    }
  }

  enum ResolvedFile {
    case missing
    /// The real path, outside the package.
    case outside(String)
    /// What it is instead: "a named pipe", "a folder", …
    case notRegular(String)
    /// The real path of a regular file inside the package.
    case inside(String)
  }

  /// Where `url` really is, with every symbolic link, `.` and `..` resolved,
  /// and whether that is a regular file inside `package`; nothing is opened.
  static func resolveInside(_ url: URL, package: URL) -> ResolvedFile {
    guard let real = realPath(url.path) else { return .missing }
    if let status = try? FileStatus(path: real, followingLinks: false), status.kind != .regular {
      return .notRegular(status.kind.description)
    }
    guard let root = realPath(package.path), real.hasPrefix(root + "/") else { return .outside(real) }
    return .inside(real)
  }

  /// `path` with every symbolic link, `.` and `..` resolved (realpath(3)); nil when it does not exist.
  private static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Copies the folders and regular files of `inventory` but the package
  /// paths in `except` from `source` into the existing folder `destination`.
  /// Links, pipes, devices and leftover temporaries are not copied (the
  /// caller refuses or names them). Each file or folder is created through
  /// the registry, so that an interrupt removing the copy is never outrun by
  /// it; only the creation holds the registry's lock, never a read or write.
  static func copy(_ inventory: PackageInventory, from source: URL, into destination: URL, except: Set<String>) throws {
    for folder in inventory.folders {
      let mode = try sourceMode(source.appendingPathComponent(folder))
      let to = destination.appendingPathComponent(folder)
      let failure = try StagingRegistry.shared.unlessInterrupted(at: to.path) {
        mkdir(to.path, mode) == 0 ? nil : errno
      }
      if let failure {
        throw PackError.output(
          path: to.path, reason: "cannot create the folder \(SystemError(code: failure).quoted)")
      }
      // mkdir's mode is less the umask; the copy keeps the source's.
      chmod(to.path, mode)
    }
    for file in inventory.files where !except.contains(file) {
      try copyFile(source.appendingPathComponent(file), to: destination.appendingPathComponent(file))
    }
  }

  private static func sourceMode(_ url: URL) throws -> mode_t {
    var info = stat()
    guard lstat(url.path, &info) == 0 else {
      throw PackError.input(path: url.path, reason: "cannot read \(SystemError.last.quoted)")
    }
    return info.st_mode & 0o777
  }

  /// Copies a regular file in pieces (segments can be large) through
  /// `FileWriter`, created with the source's mode, so a private file
  /// (keys.json with key bytes) is never readable by others. The source is
  /// opened without following a link and without blocking, and must still
  /// be a regular file: it may have changed since it was listed.
  private static func copyFile(_ from: URL, to: URL) throws {
    let input = open(from.path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC)
    guard input >= 0 else {
      throw PackError.input(path: from.path, reason: "cannot read \(SystemError.last.quoted)")
    }
    defer { close(input) }
    guard let status = try? FileStatus(descriptor: input), status.kind == .regular else {
      throw PackError.input(path: from.path, reason: "changed while the package was copied: no longer a regular file")
    }
    let output = try FileWriter(creating: to, mode: status.permissions & 0o777, exclusive: true)
    var piece = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let n = piece.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
      if n < 0, errno == EINTR { continue }
      guard n >= 0 else {
        throw PackError.input(path: from.path, reason: "cannot read \(SystemError.last.quoted)")
      }
      if n == 0 { break }
      try piece.withUnsafeBytes { try output.write(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
    }
    try output.close()
  }

  /// Stages a key at `keys/<key id>.key` (16 bytes, mode 0600). A file
  /// already there must hold the same bytes: a key id names exactly one key.
  static func stageKey(_ bytes: [UInt8], id: String, in folder: URL, _ files: FileTransaction) throws {
    let url = folder.appendingPathComponent(RewritePlan.keyFile(id))
    switch KeyLocator.readKey(at: url, within: folder) {
    case .key(let existing) where existing == bytes:
      return
    case .key:
      throw PackError.output(path: url.path, reason: "already holds a different key with this key id")
    case .notKeyFile(let reason):
      throw PackError.output(path: url.path, reason: "is in the way of the key file with this key id \(reason)")
    case .missing, .outside:
      // A path leading outside goes no further: the transaction refuses to write through the link.
      break
    }
    try files.makeFolder(url.deletingLastPathComponent())
    try files.write(bytes, to: url, newFileMode: 0o600)
  }
}
