/// Small path helpers for paths inside a package ("/"-separated, no leading "/").
public enum PackagePaths {
  /// Removes "." and resolves ".."; nil when ".." would leave the package.
  public static func normalize(_ components: [String]) -> String? {
    var out: [String] = []
    for component in components {
      switch component {
      case "", ".": continue
      case "..":
        guard !out.isEmpty else { return nil }
        out.removeLast()
      default: out.append(component)
      }
    }
    return out.joined(separator: "/")
  }

  /// A "/"-separated path a package file names (keys.json's `key_file`) as a
  /// path inside the package; nil when it climbs above the package.
  public static func normalize(_ path: String) -> String? {
    normalize(path.split(separator: "/").map(String.init))
  }

  /// A path named from outside the package (serve's request path, decoded) as
  /// a path inside it, empty segments dropped ("" for the package itself); nil
  /// when a segment is "." or "..", or it holds a NUL. Such a path is refused,
  /// not resolved: a client resolves dot-segments before it asks (RFC 3986
  /// §5.2.4), so one that sends them is trying to leave the package.
  public static func plain(_ path: String) -> String? {
    guard !path.contains("\0") else { return nil }
    let segments = path.split(separator: "/", omittingEmptySubsequences: true)
    if segments.contains(where: { $0 == ".." || $0 == "." }) { return nil }
    return segments.joined(separator: "/")
  }
}
