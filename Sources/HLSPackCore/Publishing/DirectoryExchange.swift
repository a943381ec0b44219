import Glibc

/// Renames for publishing with Linux's `renameat2`: RENAME_EXCHANGE swaps two
/// paths in one step, so replacing an asset leaves no instant without one at
/// its path; RENAME_NOREPLACE refuses to take a path something holds, so two
/// runs publishing the same new asset cannot swap each other's out.
/// glibc declares `renameat2` only under `_GNU_SOURCE`, which Swift's Glibc
/// module is not built with, so it is looked up at run time.
enum DirectoryExchange {
  private typealias RenameAt2 =
    @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
  private static let renameNoReplace: UInt32 = 1 << 0
  private static let renameExchange: UInt32 = 1 << 1

  private static let renameat2: RenameAt2? = dlsym(nil, "renameat2").map {
    unsafeBitCast($0, to: RenameAt2.self)
  }

  /// Whether `a` and `b` swapped places; false where the kernel or the file
  /// system cannot (the caller then renames one aside first), or on any failure.
  static func swap(_ a: String, _ b: String) -> Bool {
    guard let renameat2 else { return false }
    return renameat2(AT_FDCWD, a, AT_FDCWD, b, renameExchange) == 0
  }

  /// Renames the folder `source` to `destination` only if nothing is at
  /// `destination`: 0, or the errno (EEXIST when something is there).
  /// Where the kernel or the file system lacks RENAME_NOREPLACE (renameat2(2):
  /// ENOSYS, EINVAL), the name is first claimed with mkdir, which fails when
  /// anything holds it, and the folder renamed over that empty claim: a
  /// concurrent run's claim fails, and rename(2) replaces only an empty folder.
  /// `noReplaceFlag` false takes that way whatever the system (for tests).
  static func moveWithoutReplacing(_ source: String, to destination: String, noReplaceFlag: Bool = true) -> Int32 {
    if noReplaceFlag, let renameat2 {
      if renameat2(AT_FDCWD, source, AT_FDCWD, destination, renameNoReplace) == 0 { return 0 }
      guard [ENOSYS, EINVAL, ENOTSUP].contains(errno) else { return errno }
    }
    guard mkdir(destination, 0o700) == 0 else { return errno }
    guard rename(source, destination) == 0 else {
      let failure = errno
      rmdir(destination)
      return failure
    }
    return 0
  }
}
