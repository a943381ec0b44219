import Foundation

/// Folders that hold keys or unfinished work: created owner-only (0700)
/// whatever the umask, since with umask 000 mkdir's default would let any
/// local user add, remove or swap files in them.
public enum PrivateFolder {
  public static let mode: mode_t = 0o700

  /// Creates `folder` (one level: its parent must exist) with mode 0700, and
  /// fails when anything is already at that path (a folder or link another
  /// user made there first would not be private). Refused once an interrupt
  /// has begun removing unfinished work (see `StagingRegistry`).
  public static func create(_ folder: URL, registry: StagingRegistry = .shared) throws {
    let failure = try registry.unlessInterrupted(at: folder.path) { () -> Int32? in
      guard mkdir(folder.path, mode) == 0 else { return errno }
      // mkdir's mode is less the umask, which may take the owner's own bits.
      return chmod(folder.path, mode) == 0 ? nil : errno
    }
    if let failure {
      throw PackError.output(
        path: folder.path, reason: "cannot create the folder \(SystemError(code: failure).quoted)")
    }
  }

  /// The mode mkdir gives a new folder under the current umask, found by
  /// making one inside `privateFolder`, where no one else can see or race it
  /// (reading the umask means setting it, for every thread at once).
  static func umaskFolderMode(probingIn privateFolder: URL) -> mode_t {
    let probe = privateFolder.appendingPathComponent(".umask-probe")
    defer { rmdir(probe.path) }
    guard mkdir(probe.path, 0o777) == 0, let status = try? FileStatus(path: probe.path) else { return 0o755 }
    return status.permissions
  }
}
