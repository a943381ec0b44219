import Glibc

/// Swaps two paths in one step with Linux's `renameat2(RENAME_EXCHANGE)`:
/// replacing an asset this way leaves no instant without one at its path.
/// glibc declares `renameat2` only under `_GNU_SOURCE`, which Swift's Glibc
/// module is not built with, so it is looked up at run time.
enum DirectoryExchange {
  private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
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
}
