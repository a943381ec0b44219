import Foundation
import HLSPackCore

/// A package's files and their boundary: reading a playlist, and reading a
/// file a package names only from inside the package.
public enum PackageFiles {
  /// The largest playlist read: a playlist is held whole, with its new
  /// version, until every file is written. 16 MiB is some 100 000 segments
  /// with a key tag each, ten times a day of 2 s segments.
  public static let playlistLimit = 16 << 20

  public static func readPlaylist(_ url: URL) throws -> [UInt8] {
    do {
      return try SmallFile.readRegular(url.path, limit: playlistLimit, followingLinks: false)
    } catch {
      throw PackError.input(path: url.path, reason: "cannot read the playlist \(error.reason)")
    }
  }

  public enum InsideFile {
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
  public static func readInside(_ url: URL, package: URL, limit: Int) -> InsideFile {
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

  public enum ResolvedFile {
    case missing
    /// The real path, outside the package.
    case outside(String)
    /// What it is instead: "a named pipe", "a folder", …
    case notRegular(String)
    /// The real path of a regular file inside the package.
    case inside(String)
  }

  /// Where `url` really is, with every symbolic link, `.` and `..` resolved,
  /// and whether that is a regular file inside `package` (`PackageBoundary`);
  /// nothing is opened.
  public static func resolveInside(_ url: URL, package: URL) -> ResolvedFile {
    guard let file = PackageBoundary(folder: package.path).locate(url.path) else { return .missing }
    if let kind = file.kind, kind != .regular { return .notRegular(kind.description) }
    guard file.isInside else { return .outside(file.realPath) }
    return .inside(file.realPath)
  }
}
