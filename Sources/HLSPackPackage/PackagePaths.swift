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
}
