import Foundation

import HLSPackCore

/// Why a resource of a package could not be read.
public enum SourceFailure: Error, Sendable, Equatable {
  /// It does not exist: no such file, or HTTP 404 or 410.
  case missing
  /// It lies outside the package and was not read; where it leads, in words.
  case outside(String)
  /// It exists but cannot be read; why, in words.
  case unreadable(String)
}

/// Where a package's files come from: a local folder or a web server.
/// Every path is package-relative, as `URIReference.fromPackageRoot` writes
/// it (a query is kept: a server may need it), so that findings name the
/// same files whichever way the package is read. A path that climbs above
/// the package ("../") is outside it.
public protocol PackageSource {
  /// The package folder, for messages: a path or an http(s) URL ending in "/".
  var root: String { get }
  /// A small file (a playlist, a key) whole; more than `limit` bytes is unreadable.
  func readWhole(_ path: String, limit: Int) throws(SourceFailure) -> [UInt8]
  /// The size in bytes, without reading the content.
  func size(_ path: String) throws(SourceFailure) -> Int
  /// Feeds the whole resource to `consume` in pieces, in order, holding
  /// about one piece at a time; rethrows what `consume` throws.
  func stream(_ path: String, _ consume: ([UInt8]) throws -> Void) throws
  /// The bytes `range` of the resource.
  func read(_ path: String, range: Range<Int>) throws(SourceFailure) -> [UInt8]
  /// A local file's permission bits; nil over HTTP, where clients cannot see them.
  func permissions(_ path: String) -> mode_t?
  /// Why the run must stop now (its time is over); nil while it may go on.
  var expired: String? { get }
}

extension PackageSource {
  public var expired: String? { nil }

  /// Whatever the source, "../" paths name files above the package folder,
  /// an absolute path names one from the web server's root, not the package's,
  /// and a URI with a scheme names a resource of its own.
  static func outsideByName(_ path: String) -> SourceFailure? {
    // A URI with a scheme names another server or a file outside the package, wherever it points.
    if let scheme = URIReference.scheme(of: path) {
      return .outside("away from the package folder (an absolute \(scheme): URI); not read")
    }
    if path == ".." || path.hasPrefix("../") { return .outside("above the package folder; not read") }
    if path.hasPrefix("/") { return .outside("from the web server's root, not the package folder; not read") }
    return nil
  }
}

/// How a failure reads in a finding about `path`.
extension SourceFailure {
  func detail(_ path: String) -> String {
    switch self {
    case .missing: "no file \(path)"
    case .outside(let place): "\(path) leads \(place)"
    case .unreadable(let why): "\(path) cannot be read \(why)"
    }
  }
}
