import Foundation

/// What a package holds at the path of a key file.
public enum PackageKeyFile: Equatable, Sendable {
  case missing
  /// The real path, outside the package.
  case outside(String)
  /// Why not, in parentheses: "(20 bytes, larger than 16 bytes)", "(not a regular file: a named pipe)".
  case notKeyFile(String)
  case key([UInt8])

  /// Reads a key file: a regular file of exactly 16 bytes inside `package`
  /// (`PackageFiles.readInside`), so that no URI (`../..`, `%2e%2e/`,
  /// `file:///…`, a link in the package) makes the run read a file elsewhere
  /// on the machine. A large file or a named pipe costs nothing.
  public static func read(at url: URL, within package: URL) -> PackageKeyFile {
    switch PackageFiles.readInside(url, package: package, limit: 16) {
    case .missing: .missing
    case .outside(let real): .outside(real)
    case .unreadable(let reason): .notKeyFile(reason)
    case .bytes(let bytes) where bytes.count == 16: .key(bytes)
    case .bytes(let bytes): .notKeyFile("(\(bytes.count) bytes, not the 16 of an AES-128 key)")
    }
  }
}
