import Foundation
import HLSPackCore
import HLSPackPackage

/// The folder `hlspack serve` answers from, and the only place it finds files:
/// a request path is percent-decoded once and must be a plain path
/// (`PackagePaths.plain`: no `.` or `..` segment) before any lookup, and the
/// file must be inside the folder as the package layer defines it
/// (`PackageBoundary`: its real path, symbolic links resolved, below the
/// folder's real path, resolved once when serving starts).
public struct ServedFolder: Sendable {
  /// The folder's real path, without a trailing slash ("" for the root folder).
  public let realPath: String
  private let boundary: PackageBoundary

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
    boundary = PackageBoundary(folder: path)
    guard let real = boundary.realPath else { throw ServeError.folderMissing(path: path) }
    guard (try? FileStatus(path: real))?.kind == .folder else {
      throw ServeError.notAFolder(path: path)
    }
    realPath = real == "/" ? "" : real
  }

  /// Maps the path part of a request target (query already removed) to a file.
  func lookup(requestPath: String) -> Lookup {
    guard let relative = Self.relativePath(requestPath: requestPath) else { return .forbidden }
    guard !relative.isEmpty else { return .notFound }
    guard let file = boundary.locate(realPath + "/" + relative) else { return .notFound }
    guard file.isInside else { return .forbidden }
    guard file.kind == .regular else { return .notFound }
    return .file(realPath: file.realPath, relativePath: relative)
  }

  /// The path relative to the root, decoded, without empty segments ("" for
  /// the root itself); nil for a path with `.` or `..` segments, a NUL or bytes that are not UTF-8.
  /// Proxy mode refuses the same paths as folder mode.
  static func relativePath(requestPath: String) -> String? {
    requestPath.removingPercentEncoding.flatMap(PackagePaths.plain)
  }

  /// Whether the file at `path` is a regular file inside the folder; its real path if so.
  func regularFileInside(_ path: String) -> String? {
    guard let file = boundary.locate(path), file.isInside, file.kind == .regular else { return nil }
    return file.realPath
  }
}
