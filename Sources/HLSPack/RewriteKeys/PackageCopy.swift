import Foundation
import HLSPackCore
import HLSPackPackage

/// The file operations of `rewrite-keys` that write: copying a package, and
/// staging key files.
enum PackageCopy {
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
    switch PackageKeyFile.read(at: url, within: folder) {
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
