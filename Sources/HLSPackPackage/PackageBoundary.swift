import Foundation
import HLSPackCore

/// A package's folder by its real path: the one definition of "a file inside
/// the package" for verify, rewrite-keys, `encode --verify` and serve. A file
/// is inside when its own real path (every symbolic link, `.` and `..`
/// resolved) lies below the folder's, so a link in the package may lead to
/// another of its files, never to a file elsewhere on the machine.
package struct PackageBoundary: Sendable, Equatable {
  /// The folder's real path; nil when it does not exist, and then nothing is inside.
  package let realPath: String?

  /// Resolves `folder` once: a boundary kept for many lookups (serve's) stays
  /// where the folder was when it was made.
  package init(folder: String) {
    realPath = Self.realPath(folder)
  }

  /// A file as it really is; nothing is opened.
  package struct Located: Sendable, Equatable {
    package var realPath: String
    /// What lstat(2) says of the real path; nil when it cannot say.
    package var kind: FileKind?
    package var isInside: Bool
  }

  /// Where `path` really is, and whether that is inside; nil when nothing is there.
  package func locate(_ path: String) -> Located? {
    guard let real = Self.realPath(path) else { return nil }
    return Located(
      realPath: real, kind: (try? FileStatus(path: real, followingLinks: false))?.kind, isInside: contains(real))
  }

  /// Whether the real path `real` lies below the folder (the folder itself is not a file of it).
  private func contains(_ real: String) -> Bool {
    guard let realPath else { return false }
    return real.hasPrefix(realPath == "/" ? "/" : realPath + "/") && real != realPath
  }

  /// `path` with every symbolic link, `.` and `..` resolved (realpath(3)); nil when it does not exist.
  private static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
