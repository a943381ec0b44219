import Foundation

/// Builds an asset in a hidden folder beside its destination and moves it into
/// place only when complete, so a failed or interrupted run never leaves a half
/// written package where a player would look; an existing package is renamed
/// aside just before.
public final class AssetStaging: @unchecked Sendable {
  public let destination: URL
  /// The folder the asset is written into until `publish()`.
  public let folder: URL
  private let registry: StagingRegistry
  private var published = false
  /// Hidden folders of this destination that another run made: one still
  /// running, or one killed before it could remove them (SIGKILL, a power
  /// cut). They may hold keys, and only a person can tell which case it is.
  public private(set) var othersFolders: [URL] = []

  /// The longest destination name: the staging and retired folders are named
  /// ".<name>.partial-XXXXXXXX" and ".<name>.old-XXXXXXXX", within a file name's 255 bytes.
  public static let longestName = 255 - ".".utf8.count - ".partial-XXXXXXXX".utf8.count

  /// Fails when the destination name is too long, when the destination exists
  /// and `replace` is false, or when the parent folder cannot be written.
  public init(destination: URL, replace: Bool, registry: StagingRegistry = .shared) throws {
    let fm = FileManager.default
    self.destination = destination
    self.registry = registry
    let parent = destination.deletingLastPathComponent()
    let nameBytes = destination.lastPathComponent.utf8.count
    guard nameBytes <= Self.longestName else {
      throw PackError.output(
        path: destination.path,
        reason: "the folder name is \(nameBytes) bytes; at most \(Self.longestName) leave room for its staging folder's name")
    }
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
    let name = destination.lastPathComponent
    othersFolders = ((try? fm.contentsOfDirectory(atPath: parent.path)) ?? [])
      .filter { ($0.hasPrefix(".\(name).partial-") || $0.hasPrefix(".\(name).old-")) && $0 != folder.lastPathComponent }
      .sorted().map { parent.appendingPathComponent($0) }
  }

  /// What to tell of `othersFolders`, if there are any.
  public var othersFoldersWarning: String? {
    guard !othersFolders.isEmpty else { return nil }
    let paths = othersFolders.map(\.path).joined(separator: ", ")
    return "\(paths): left by another run of this asset, one still running or one that was killed; they may hold keys: remove them once no other run is writing \(destination.path)"
  }

  deinit {
    if !published { discard() }
  }

  /// Moves the finished asset into place. An older asset is exchanged with
  /// it in one step where the file system can (players never find the path
  /// empty), otherwise renamed aside just before. An interrupt arriving
  /// meanwhile waits for the move, so it never leaves only the old asset's
  /// hidden copy; it then removes that copy if this has not yet. Returns a
  /// warning when some of that copy could not be removed (files the run may
  /// not delete).
  @discardableResult
  public func publish() throws -> String? {
    let fm = FileManager.default
    let retired = folder.deletingLastPathComponent()
      .appendingPathComponent(".\(destination.lastPathComponent).old-\(UUID().uuidString.prefix(8))")
    let replaced = try registry.unlessInterrupted(at: destination.path) { (registered: inout Set<URL>) -> URL? in
      let replacing = fm.fileExists(atPath: destination.path)
      if replacing, DirectoryExchange.swap(folder.path, destination.path) {
        published = true
        // The staging folder's path now holds the old asset, which an interrupt may remove.
        do {
          try fm.moveItem(at: folder, to: retired)
          registered.remove(folder)
          registered.insert(retired)
        } catch {
          return folder
        }
        return retired
      }
      if replacing {
        do {
          try fm.moveItem(at: destination, to: retired)
        } catch {
          throw PackError.output(path: destination.path, reason: "cannot move the old asset aside (\(error.localizedDescription))")
        }
      }
      do {
        try fm.moveItem(at: folder, to: destination)
      } catch {
        if replacing { try? fm.moveItem(at: retired, to: destination) }
        throw PackError.output(path: destination.path, reason: "cannot move the finished asset into place (\(error.localizedDescription))")
      }
      published = true
      registered.remove(folder)
      // Only now: until the new asset is in place, the old one must not go.
      if replacing { registered.insert(retired) }
      return replacing ? retired : nil
    }
    guard let replaced else { return nil }
    removeTree(at: replaced)
    registry.unregister(replaced)
    guard fm.fileExists(atPath: replaced.path) else { return nil }
    return "the replaced asset could not be removed entirely; what is left of it is in \(replaced.path)"
  }

  public func discard() {
    removeTree(at: folder)
    registry.unregister(folder)
  }
}
