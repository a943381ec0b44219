import Foundation

/// A fresh folder under the system temporary directory, removed on deinit.
final class TemporaryFolder {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("hlspack-unit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// A folder `name` in it that hlspack wrote, as its report.json says: one `--force` may replace.
  func asset(_ name: String) throws -> URL {
    let folder = url.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(#"{"tool": {"name": "hlspack", "version": "0.1.0"}}"#.utf8).write(to: folder.appendingPathComponent("report.json"))
    return folder
  }

  func contents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
  }
}
