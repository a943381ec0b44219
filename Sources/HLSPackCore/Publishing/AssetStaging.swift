import Foundation

/// Builds an asset in a hidden folder beside its destination and moves it into
/// place only when complete, so a failed or interrupted run never leaves a half
/// written package where a player would look, and an existing package is
/// replaced in one rename.
public final class AssetStaging: @unchecked Sendable {
  public let destination: URL
  /// The folder the asset is written into until `publish()`.
  public let folder: URL
  private let registry: StagingRegistry
  private var published = false

  /// Fails when the destination exists and `replace` is false, or when the
  /// parent folder cannot be written.
  public init(destination: URL, replace: Bool, registry: StagingRegistry = .shared) throws {
    let fm = FileManager.default
    self.destination = destination
    self.registry = registry
    let parent = destination.deletingLastPathComponent()
    if fm.fileExists(atPath: destination.path), !replace {
      throw PackError.output(path: destination.path, reason: "already exists (use --force to replace it)")
    }
    do {
      try fm.createDirectory(at: parent, withIntermediateDirectories: true)
    } catch {
      throw PackError.output(path: parent.path, reason: "cannot create the output folder (\(error.localizedDescription))")
    }
    let token = UUID().uuidString.prefix(8)
    let folder = parent.appendingPathComponent(".\(destination.lastPathComponent).partial-\(token)")
    self.folder = folder
    try registry.register(folder)
    // A failure from here on runs deinit, which unregisters the folder.
    try registry.unlessInterrupted(at: destination.path) {
      do {
        try fm.createDirectory(at: folder, withIntermediateDirectories: false)
      } catch {
        throw PackError.output(path: parent.path, reason: "cannot write in the output folder (\(error.localizedDescription))")
      }
    }
  }

  deinit {
    if !published { discard() }
  }

  /// Moves the finished asset into place, replacing an older one in one step.
  public func publish() throws {
    let fm = FileManager.default
    var retired: URL?
    if fm.fileExists(atPath: destination.path) {
      let old = folder.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).old-\(UUID().uuidString.prefix(8))")
      try fm.moveItem(at: destination, to: old)
      retired = old
    }
    do {
      try fm.moveItem(at: folder, to: destination)
    } catch {
      if let retired { try? fm.moveItem(at: retired, to: destination) }
      throw PackError.output(path: destination.path, reason: "cannot move the finished asset into place (\(error.localizedDescription))")
    }
    published = true
    registry.unregister(folder)
    if let retired { try? fm.removeItem(at: retired) }
  }

  public func discard() {
    try? FileManager.default.removeItem(at: folder)
    registry.unregister(folder)
  }
}
