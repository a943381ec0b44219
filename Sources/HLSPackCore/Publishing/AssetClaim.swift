import Foundation

/// One run at a time makes a given asset: before deciding to make it (a
/// batch compares its record first) a run locks `.<name>.lock` beside it
/// (`FileLock`) and holds the lock until the asset is published or given
/// up. A second run that wants the same asset meanwhile fails that asset at
/// once, naming it, instead of both making it and both reporting it as
/// theirs while the folder holds only one run's work.
public enum AssetClaim {
  public static func lockFile(for destination: URL) -> URL {
    destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).lock")
  }

  /// Locks `destination` for this run, making its parent folder if needed.
  /// `waiting`: while another run holds it, wait (encode: the asset then
  /// exists, and is replaced only with --force) instead of failing (batch).
  public static func take(_ destination: URL, waiting: Bool = false, registry: StagingRegistry = .shared) throws
    -> FileLock
  {
    try AssetStaging.checkNameLength(destination)
    let parent = destination.deletingLastPathComponent()
    try registry.unlessInterrupted(at: parent.path) {
      do {
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
      } catch {
        throw PackError.output(
          path: parent.path, reason: "cannot create the output folder (\(error.localizedDescription))")
      }
    }
    let file = lockFile(for: destination)
    do {
      return try FileLock(at: file, registry: registry, waiting: waiting)
    } catch .held {
      throw PackError.output(
        path: destination.path,
        reason:
          "another hlspack run is making this asset now (it holds \(file.lastPathComponent)); this run leaves it to that one"
      )
    } catch .unusable(let reason) {
      throw PackError.output(path: file.path, reason: "cannot lock the asset (\(reason))")
    }
  }
}
