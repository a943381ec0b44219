import Foundation

/// Builds an asset in a hidden folder beside its destination and moves it into
/// place only when complete, so a failed or interrupted run never leaves a half
/// written package where a player would look; an existing package is renamed
/// aside just before.
public final class AssetStaging: @unchecked Sendable {
  public let destination: URL
  /// The folder the asset is written into until `publish()`.
  public let folder: URL
  private let replace: Bool
  private let protecting: [URL]
  private let registry: StagingRegistry
  private var published = false
  /// The staging folder is owner-only until published; the asset then gets
  /// the mode a new folder gets under the umask.
  private var publishedMode: mode_t = 0o755
  /// Hidden folders of this destination that another run made and that
  /// cannot be shown abandoned (`StagingMarker`): one still running, one on
  /// another machine, or one made before runs marked their folders. They may
  /// hold keys, and only a person can tell which case it is.
  public private(set) var othersFolders: [URL] = []
  /// Hidden folders of this destination that killed runs left, removed here.
  public private(set) var removedLeftovers: [URL] = []

  /// The longest destination name: the staging and retired folders are named
  /// ".<name>.partial-XXXXXXXX" and ".<name>.old-XXXXXXXX", within a file name's 255 bytes.
  public static let longestName = 255 - ".".utf8.count - ".partial-XXXXXXXX".utf8.count

  /// Fails when the destination name is too long, when something is at the
  /// destination that may not be replaced (see `AssetDestination`), or when
  /// the parent folder cannot be written. `protecting`: the files the run
  /// reads, whose folders are never replaced. `ownerOnly`: the published
  /// folder stays 0700 (an asset's keys folder).
  public init(
    destination: URL, replace: Bool, protecting: [URL] = [], ownerOnly: Bool = false,
    registry: StagingRegistry = .shared
  ) throws {
    let fm = FileManager.default
    self.destination = destination
    self.replace = replace
    self.protecting = protecting
    self.registry = registry
    let parent = destination.deletingLastPathComponent()
    try Self.checkNameLength(destination)
    try AssetDestination.check(destination, replace: replace, protecting: protecting)
    do {
      try fm.createDirectory(at: parent, withIntermediateDirectories: true)
    } catch {
      throw PackError.output(
        path: parent.path, reason: "cannot create the output folder (\(error.localizedDescription))")
    }
    let token = UUID().uuidString.prefix(8)
    let folder = parent.appendingPathComponent(".\(destination.lastPathComponent).partial-\(token)")
    self.folder = folder
    try registry.register(folder)
    // A failure from here on runs deinit, which unregisters the folder.
    do {
      try PrivateFolder.create(folder, registry: registry)
      try registry.unlessInterrupted(at: folder.path) { try StagingMarker.write(into: folder) }
    } catch PackError.output(_, let reason) {
      throw PackError.output(path: parent.path, reason: "cannot write in the output folder: \(reason)")
    }
    publishedMode =
      ownerOnly
      ? PrivateFolder.mode
      : try registry.unlessInterrupted(at: destination.path) { PrivateFolder.umaskFolderMode(probingIn: folder) }
    (removedLeftovers, othersFolders) = Self.removeAbandoned(beside: destination, except: folder)
  }

  /// Removes the hidden folders of `destination` that killed runs left
  /// (`StagingMarker.isAbandoned`); returns those and the others, which stay.
  public static func removeAbandoned(beside destination: URL, except own: URL? = nil) -> (
    removed: [URL], kept: [URL]
  ) {
    let parent = destination.deletingLastPathComponent()
    let name = destination.lastPathComponent
    let hidden = ((try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [])
      .filter { ($0.hasPrefix(".\(name).partial-") || $0.hasPrefix(".\(name).old-")) && $0 != own?.lastPathComponent }
      .sorted().map { parent.appendingPathComponent($0) }
    var removed: [URL] = []
    var kept: [URL] = []
    for folder in hidden {
      if StagingMarker.isAbandoned(folder) {
        removeTree(at: folder)
        removed.append(folder)
      } else {
        kept.append(folder)
      }
    }
    return (removed, kept)
  }

  /// What to tell of `removedLeftovers`, if there are any.
  public var removedLeftoversNote: String? { Self.removedNote(removedLeftovers) }

  /// What to tell of folders `removeAbandoned` removed, if any.
  public static func removedNote(_ removed: [URL]) -> String? {
    guard !removed.isEmpty else { return nil }
    return "removed \(removed.map(\.path).joined(separator: ", ")): left by a killed hlspack run of this asset"
  }

  /// Fails when the destination's name leaves no room for its hidden folders' names.
  static func checkNameLength(_ destination: URL) throws {
    let nameBytes = destination.lastPathComponent.utf8.count
    guard nameBytes <= Self.longestName else {
      throw PackError.output(
        path: destination.path,
        reason:
          "the folder name is \(nameBytes) bytes; at most \(Self.longestName) leave room for its staging folder's name")
    }
  }

  /// What to tell of `othersFolders`, if there are any.
  public var othersFoldersWarning: String? {
    guard !othersFolders.isEmpty else { return nil }
    let paths = othersFolders.map(\.path).joined(separator: ", ")
    return
      "\(paths): left by another run of this asset, one still running or one that was killed; they may hold keys: remove them once no other run is writing \(destination.path)"
  }

  deinit {
    if !published { discard() }
  }

  /// Moves the finished asset into place. Without `replace` it never takes
  /// the place of anything: a run that published the same asset meanwhile
  /// keeps it, and this one fails. An older asset is exchanged with the new
  /// one in one step where the file system can (players never find the path
  /// empty), otherwise renamed aside just before. An interrupt arriving
  /// meanwhile waits for the move, so it never leaves only the old asset's
  /// hidden copy; it then removes that copy if this has not yet. Returns a
  /// warning when some of that copy could not be removed (files the run may
  /// not delete).
  @discardableResult
  public func publish() throws -> String? {
    try publish(after: []).first
  }

  /// Publishes each of `companions` (staged with the same registry: an
  /// asset's keys folder, kept outside the asset), then this asset, in one
  /// step that an interrupt cannot split, so a run never leaves an asset
  /// without its companions or the other way round. Returns the warnings.
  public func publish(after companions: [AssetStaging]) throws -> [String] {
    let replaced = try registry.unlessInterrupted(at: destination.path) { (registered: inout Set<URL>) in
      try (companions + [self]).map { try $0.moveIntoPlace(&registered) }
    }
    return zip(companions + [self], replaced).compactMap { staging, replaced in
      replaced.flatMap { staging.removeReplaced($0) }
    }
  }

  /// The renames of `publish`, under the registry's lock; returns the
  /// hidden folder that now holds the replaced asset, if any.
  private func moveIntoPlace(_ registered: inout Set<URL>) throws -> URL? {
    // Checked again: the destination may have appeared or changed while the asset was made.
    try AssetDestination.check(destination, replace: replace, protecting: protecting)
    // The published asset holds only what the run made; the interrupt handler still removes the folder by its registration.
    StagingMarker.remove(from: folder)
    guard chmod(folder.path, publishedMode) == 0 else {
      throw PackError.output(
        path: folder.path, reason: "cannot set the asset folder's mode \(SystemError.last.quoted)")
    }
    let replacing = (try? FileStatus(path: destination.path, followingLinks: false)) != nil
    if replacing, DirectoryExchange.swap(folder.path, destination.path) {
      published = true
      return retireSwapped(registered: &registered)
    }
    let retired = replacing ? try renameAside() : nil
    let failure = DirectoryExchange.moveWithoutReplacing(folder.path, to: destination.path)
    guard failure == 0 else {
      if let retired { rename(retired.path, destination.path) }
      throw PackError.output(
        path: destination.path,
        reason: failure == EEXIST
          ? "already exists: another run published it while this one was working (use --force to replace it)"
          : "cannot move the finished asset into place \(SystemError(code: failure).quoted)")
    }
    published = true
    registered.remove(folder)
    // Only now: until the new asset is in place, the old one must not go.
    if let retired {
      try? StagingMarker.write(into: retired)
      registered.insert(retired)
    }
    return retired
  }

  /// Removes the replaced asset's hidden copy; a warning when some of it stays.
  private func removeReplaced(_ replaced: URL) -> String? {
    removeTree(at: replaced)
    registry.unregister(replaced)
    guard FileManager.default.fileExists(atPath: replaced.path) else { return nil }
    return "the replaced asset could not be removed entirely; what is left of it is in \(replaced.path)"
  }

  /// After the exchange the staging path holds the old asset, which an
  /// interrupt may remove; it takes an `.old-` name, as warnings call it.
  /// Returns where it is.
  private func retireSwapped(registered: inout Set<URL>) -> URL {
    let retired = retiredPath()
    // Marked as this run's, so a rerun may remove it if this run is killed before it does.
    try? StagingMarker.write(into: folder)
    guard rename(folder.path, retired.path) == 0 else { return folder }
    registered.remove(folder)
    registered.insert(retired)
    return retired
  }

  /// Where the file system cannot exchange: the old asset goes aside first.
  private func renameAside() throws -> URL {
    let retired = retiredPath()
    guard rename(destination.path, retired.path) == 0 else {
      throw PackError.output(
        path: destination.path, reason: "cannot move the old asset aside \(SystemError.last.quoted)")
    }
    return retired
  }

  private func retiredPath() -> URL {
    folder.deletingLastPathComponent()
      .appendingPathComponent(".\(destination.lastPathComponent).old-\(UUID().uuidString.prefix(8))")
  }

  public func discard() {
    removeTree(at: folder)
    registry.unregister(folder)
  }
}
