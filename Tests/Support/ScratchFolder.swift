import Foundation

/// Scratch folders for tests, all under one folder per test process that is
/// removed when the process exits, so that runs do not pile up packages in the
/// temporary directory (about 35 MB a run). HLSPACK_KEEP_SCRATCH=1 keeps it,
/// to look at what a failing test wrote.
public enum ScratchFolder {
  /// A fresh folder named after `name` (the calling function by default).
  public static func make(_ name: String = #function) throws -> URL {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    let url = try root().appendingPathComponent("\(safe)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  private static func root() throws -> URL {
    try lock.withLock {
      if let rootPath { return URL(fileURLWithPath: rootPath, isDirectory: true) }
      let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "hlspack-tests-\(UUID().uuidString.prefix(8))")
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      rootPath = url.path
      if ProcessInfo.processInfo.environment["HLSPACK_KEEP_SCRATCH"] != "1" {
        // A C function pointer captures nothing: the path is read from the static.
        atexit {
          if let root = ScratchFolder.rootPath { try? FileManager.default.removeItem(atPath: root) }
        }
      }
      return url
    }
  }
  nonisolated(unsafe) private static var rootPath: String?
  private static let lock = NSLock()
}
