import Foundation
import HLSPackCore

/// The folder `hlspack serve` answers from, and the only place it reads files:
/// a request path is percent-decoded once, `.` and `..` segments are refused
/// before any lookup, and the file's real path (symbolic links resolved) must
/// still be inside the folder's real path.
public struct ServedFolder: Sendable {
  /// The folder's real path, without a trailing slash.
  public let realPath: String

  /// What a request path names.
  enum Lookup: Equatable {
    /// A regular file inside the folder: its real path, and its path relative to the folder as requested.
    case file(realPath: String, relativePath: String)
    /// Nothing there, or a folder (folders are never listed).
    case notFound
    /// A path that tries to leave the folder (`..`, an encoded `..`, a link pointing outside) or is not valid UTF-8.
    case forbidden
  }

  public init(path: String) throws {
    guard let resolved = realpath(path, nil) else {
      throw ServeError.folderMissing(path: path)
    }
    defer { free(resolved) }
    let real = String(cString: resolved)
    guard (try? FileStatus(path: real))?.kind == .folder else {
      throw ServeError.notAFolder(path: path)
    }
    realPath = real == "/" ? "" : real
  }

  /// Maps the path part of a request target (query already removed) to a file.
  func lookup(requestPath: String) -> Lookup {
    guard let relative = Self.relativePath(requestPath: requestPath) else { return .forbidden }
    guard !relative.isEmpty else { return .notFound }
    guard let resolved = realpath(realPath + "/" + relative, nil) else { return .notFound }
    defer { free(resolved) }
    let real = String(cString: resolved)
    guard real.hasPrefix(realPath + "/") else { return .forbidden }
    guard (try? FileStatus(path: real))?.kind == .regular else { return .notFound }
    return .file(realPath: real, relativePath: relative)
  }

  /// The path relative to the root, decoded, without empty segments ("" for
  /// the root itself); nil for a path with `.` or `..` segments, a NUL or bytes that are not UTF-8.
  /// Proxy mode refuses the same paths as folder mode.
  static func relativePath(requestPath: String) -> String? {
    guard let decoded = requestPath.removingPercentEncoding, !decoded.contains("\0") else { return nil }
    let segments = decoded.split(separator: "/", omittingEmptySubsequences: true)
    if segments.contains(where: { $0 == ".." || $0 == "." }) { return nil }
    return segments.joined(separator: "/")
  }
}
