/// Package-relative paths: the part of a URI to open as a file, and the folder of a path.
enum VerifyPaths {
  /// A URI's path without its query and fragment, to open as a file.
  static func stripQuery(_ reference: String) -> String {
    String(reference[..<(reference.firstIndex { $0 == "?" || $0 == "#" } ?? reference.endIndex)])
  }

  /// The folder of a package-relative path ("" at the root).
  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return String(path[..<slash])
  }
}
