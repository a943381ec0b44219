import Foundation
import HLSPackCore

/// Changes several files of an existing folder all together or not at all, as
/// far as POSIX allows. Every new version, and a copy of every file it
/// replaces, is first written as a hidden temporary beside its target; only
/// when all are written are the new versions renamed into place. A failure
/// before that removes the temporaries, so every target stays byte for byte
/// as it was; a rename that fails part way renames the copies back over the
/// files already replaced. Only a crash during the renames themselves can
/// leave some files new and some old: POSIX renames one file at a time.
///
/// An interrupt (SIGINT, SIGTERM) removes the temporaries through the
/// registry, and waits while the renames are under way.
///
/// Nothing is written through or over a symbolic link below the folder: a
/// link there could lead anywhere, and the temporaries beside a target and
/// its rename would follow it.
final class FileTransaction {
  private struct Change {
    var target: URL
    var temporary: URL
    /// A copy of the file being replaced, for putting it back; nil when the target is new.
    var original: URL?
  }

  private var changes: [Change] = []
  /// Folders made for new files, removed again if the transaction fails.
  private var createdFolders: [URL] = []
  private let registry: StagingRegistry
  /// The folder whose files change; every target lies below it.
  private let root: URL
  /// Told every temporary's name before it is made (a journal, for a rerun after a kill).
  private let noteTemporary: ((URL) throws -> Void)?

  private init(root: URL, registry: StagingRegistry, noteTemporary: ((URL) throws -> Void)?) {
    self.root = root.standardizedFileURL
    self.registry = registry
    self.noteTemporary = noteTemporary
  }

  /// Lets `stage` write the new versions of files below `root`, then renames
  /// them into place; if anything throws, the folder is left as it was.
  static func run(
    in root: URL, registry: StagingRegistry = .shared, noteTemporary: ((URL) throws -> Void)? = nil,
    _ stage: (FileTransaction) throws -> Void
  ) throws {
    let transaction = FileTransaction(root: root, registry: registry, noteTemporary: noteTemporary)
    do {
      try stage(transaction)
      try transaction.commit()
    } catch {
      transaction.discard()
      throw error
    }
  }

  /// Stages `bytes` as the new content of `target`. An existing target keeps
  /// its mode exactly; a new one gets `newFileMode`.
  func write(_ bytes: [UInt8], to target: URL, newFileMode: mode_t = 0o644) throws {
    try checkNoLink(on: target)
    let existing = try? FileManager.default.attributesOfItem(atPath: target.path)
    let mode = (existing?[.posixPermissions] as? NSNumber).map { mode_t($0.intValue) } ?? newFileMode
    changes.append(
      Change(target: target, temporary: try temporary("rewrite", beside: target, holding: bytes, mode: mode)))
    guard existing != nil else { return }
    let old: [UInt8]
    do {
      old = try SmallFile.readRegular(target.path, limit: Int.max, followingLinks: false)
    } catch {
      throw PackError.input(path: target.path, reason: "cannot read \(error.reason)")
    }
    changes[changes.count - 1].original = try temporary("previous", beside: target, holding: old, mode: mode)
  }

  /// Makes `folder` (one level) for new files unless it exists.
  func makeFolder(_ folder: URL) throws {
    try checkNoLink(on: folder)
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue { return }
    try registry.register(folder)
    let failure = try registry.unlessInterrupted(at: folder.path) { mkdir(folder.path, 0o777) == 0 ? nil : errno }
    if let failure {
      registry.unregister(folder)
      throw PackError.output(
        path: folder.path, reason: "cannot create the folder \(SystemError(code: failure).quoted)")
    }
    createdFolders.append(folder)
  }

  /// Refuses a target that is, or lies below, a symbolic link inside `root`.
  private func checkNoLink(on target: URL) throws {
    let rootParts = root.pathComponents
    let parts = target.standardizedFileURL.pathComponents
    guard parts.count > rootParts.count, parts.starts(with: rootParts) else {
      throw PackError.output(path: target.path, reason: "is not inside \(root.path)")
    }
    var path = root
    for part in parts.dropFirst(rootParts.count) {
      path.appendPathComponent(part)
      // What does not exist yet is made by this transaction, and nothing below it exists either.
      guard let status = try? FileStatus(path: path.path, followingLinks: false) else { return }
      if status.kind == .symbolicLink {
        throw PackError.output(
          path: path.path,
          reason: "is a symbolic link; nothing is written through or over one (it may lead outside \(root.path))")
      }
    }
  }

  /// The name of a temporary beside `target`: hidden, after the target, with a random token.
  private static func temporaryName(_ label: String, beside target: URL) -> String {
    ".\(target.lastPathComponent).\(label)-\(UUID().uuidString.prefix(8))"
  }

  /// Whether a file name is one `temporaryName` gives: a new version or a
  /// copy of an old one that a transaction left (a run killed with SIGKILL).
  static func isTemporary(_ name: String) -> Bool {
    name.wholeMatch(of: /\..+\.(rewrite|previous)-[0-9A-F]{8}/) != nil
  }

  private func commit() throws {
    let folder = changes.first?.target.deletingLastPathComponent().path ?? ""
    try registry.unlessInterrupted(at: folder) { registered in
      for (index, change) in changes.enumerated() {
        guard rename(change.temporary.path, change.target.path) != 0 else { continue }
        let reason = SystemError.last.reason
        let restored = putBack(changes[..<index])
        // Renamed away, or the only copies of old versions: not for the handler to remove.
        for done in changes[..<index] { registered.subtract([done.temporary] + (done.original.map { [$0] } ?? [])) }
        // What is left are unused temporaries, for discard().
        changes.removeFirst(index)
        throw PackError.output(
          path: change.target.path,
          reason: "cannot replace (\(reason)); "
            + (restored
              ? "no file was changed"
              : "some files already replaced could not be put back: their old versions are the hidden .<name>.previous-* files")
        )
      }
      for change in changes {
        registered.remove(change.temporary)
        if let original = change.original {
          unlink(original.path)
          registered.remove(original)
        }
      }
      registered.subtract(createdFolders)
      changes = []
      createdFolders = []
    }
  }

  /// Undoes renames already done; true when every target is as it was. A
  /// copy that cannot be renamed back stays, the only copy of the old version.
  private func putBack(_ done: ArraySlice<Change>) -> Bool {
    var restored = true
    for change in done.reversed() {
      let undone = change.original.map { rename($0.path, change.target.path) == 0 } ?? (unlink(change.target.path) == 0)
      restored = restored && undone
    }
    return restored
  }

  /// Removes every temporary and every folder made for new files.
  private func discard() {
    for change in changes {
      for url in [change.temporary] + (change.original.map { [$0] } ?? []) {
        unlink(url.path)
        registry.unregister(url)
      }
    }
    for folder in createdFolders.reversed() {
      rmdir(folder.path)
      registry.unregister(folder)
    }
    changes = []
    createdFolders = []
  }

  private func temporary(_ label: String, beside target: URL, holding bytes: [UInt8], mode: mode_t) throws -> URL {
    let url = target.deletingLastPathComponent().appendingPathComponent(Self.temporaryName(label, beside: target))
    try noteTemporary?(url)
    try registry.register(url)
    do {
      try writeFile(bytes, to: url, mode: 0o600, exclusive: true)
    } catch PackError.output(_, let reason) {
      registry.unregister(url)
      // Named after the target: the temporary's name means nothing to the user.
      throw PackError.output(path: target.path, reason: "cannot write a temporary file beside it: \(reason)")
    }
    // The exact mode, whatever the umask, before the file takes the target's name.
    guard chmod(url.path, mode) == 0 else {
      let reason = SystemError.last.reason
      unlink(url.path)
      registry.unregister(url)
      throw PackError.output(path: target.path, reason: "cannot set the mode of its new version (\(reason))")
    }
    return url
  }
}
