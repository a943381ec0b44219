import Foundation

/// How a profile's paths are resolved and which names may become file names.
extension ProfileLoader {
  /// Resolves a relative path against a folder; `~` is expanded. The result is
  /// computed from the text alone, as `standardizedFileURL` would give it
  /// (`.` and `..` removed lexically), but without asking the file system
  /// whether each path is a folder: a profile with thousands of paths loads
  /// without a `stat` per path.
  public static func resolve(_ path: String, against base: URL) -> URL {
    resolve(path, inFolder: base.path)
  }

  /// `resolve(_:against:)` for a folder given as a path: loops over many paths
  /// take the folder's path once.
  static func resolve(_ path: String, inFolder basePath: String) -> URL {
    URL(fileURLWithPath: resolvedPath(path, inFolder: basePath), isDirectory: false)
  }

  static func resolvedPath(_ path: String, inFolder basePath: String) -> String {
    let expanded = path.hasPrefix("~") ? (path as NSString).expandingTildeInPath : path
    return lexicallyNormalized(expanded.hasPrefix("/") ? expanded : basePath + "/" + expanded)
  }

  /// An absolute path with empty, `.` and `..` components removed; `..` above
  /// the root stays at the root, as in POSIX path resolution.
  static func lexicallyNormalized(_ absolutePath: String) -> String {
    if isNormalized(absolutePath.utf8) { return absolutePath }
    var components: [Substring] = []
    for component in absolutePath.split(separator: "/", omittingEmptySubsequences: true) {
      switch component {
      case ".": continue
      case "..": if !components.isEmpty { components.removeLast() }
      default: components.append(component)
      }
    }
    return "/" + components.joined(separator: "/")
  }

  /// Whether a path has no empty, `.` or `..` component and no trailing slash.
  fileprivate static func isNormalized(_ path: String.UTF8View) -> Bool {
    var previous: UInt8 = 0
    for byte in path {
      if previous == UInt8(ascii: "/"), byte == UInt8(ascii: "/") || byte == UInt8(ascii: ".") { return false }
      previous = byte
    }
    return path.first == UInt8(ascii: "/") && (previous != UInt8(ascii: "/") || path.count == 1)
  }

  /// Letters, digits, '.', '_' and '-', not starting with '.' or '-', at most 64 characters.
  public static func isSafePathComponent(_ s: String) -> Bool {
    guard let first = s.unicodeScalars.first, s.unicodeScalars.count <= 64 else { return false }
    func allowed(_ c: Unicode.Scalar) -> Bool {
      ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "." || c == "_" || c == "-"
    }
    return first != "." && first != "-" && s.unicodeScalars.allSatisfy(allowed)
  }
}
