import Foundation

/// A scratch folder removed as soon as its test lets go of it, for unit tests
/// that make many small folders.
public final class TemporaryFolder {
  public let url: URL

  public init(_ name: String = #function) throws {
    url = try ScratchFolder.make(name)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// A folder `name` in it that hlspack wrote, as its report.json says: one `--force` may replace.
  public func asset(_ name: String) throws -> URL {
    let folder = url.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(#"{"tool": {"name": "hlspack", "version": "0.1.0"}}"#.utf8).write(
      to: folder.appendingPathComponent("report.json"))
    return folder
  }

  /// A file `name` in it holding `text`.
  public func file(_ name: String, _ text: String) throws -> URL {
    let file = url.appendingPathComponent(name)
    try Data(text.utf8).write(to: file)
    return file
  }

  public func contents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
  }
}
