import Foundation

/// A path as the user can open it from where they ran the command: relative
/// to the current folder when it lies below it, else absolute.
public enum DisplayPath {
  public static func of(_ url: URL, cwd: String = FileManager.default.currentDirectoryPath) -> String {
    let path = url.standardizedFileURL.path
    let base = Array((cwd.hasSuffix("/") ? cwd : cwd + "/").utf8)
    // Byte for byte: Swift's String comparison takes NFC and NFD spellings as one.
    let bytes = Array(path.utf8)
    guard bytes.count > base.count, bytes.starts(with: base) else { return path }
    let relative = String(decoding: bytes[base.count...], as: UTF8.self)
    // A relative path read as an option is no path.
    return relative.hasPrefix("-") ? "./" + relative : relative
  }
}
