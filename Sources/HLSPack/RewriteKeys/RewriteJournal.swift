import Foundation
import HLSPackCore

/// What lets a rewrite in place clean up after an earlier one that was
/// killed (SIGKILL, a power cut) and left its hidden temporaries — new
/// versions and copies of old files, key files among them — in the package.
///
/// The run holds a lock on `.hlspack-rewrite-keys.lock` at the package's
/// root (`FileLock`) and writes into it the name of every temporary before
/// making it. A run that takes the lock while the file still exists knows
/// its writer is gone (the kernel lets go of a dead process's lock) and
/// removes the temporaries listed there, and nothing else: only a regular
/// file inside the package, reached without a link, named as a temporary.
/// A second rewrite of the package while one runs is refused.
final class RewriteJournal {
  static let fileName = ".hlspack-rewrite-keys.lock"
  /// The list is small (a few names per playlist and key); more is not ours to trust.
  private static let limit = 16 << 20

  private let package: URL
  private let lock: FileLock
  /// The package paths of the killed run's temporaries this run removed.
  private(set) var removed: [String] = []

  init(package: URL) throws {
    self.package = package
    let file = package.appendingPathComponent(Self.fileName)
    do {
      lock = try FileLock(at: file)
    } catch .held {
      throw PackError.output(
        path: package.path,
        reason: "another rewrite-keys run is rewriting this package in place now (it holds \(Self.fileName))")
    } catch .unusable(let reason) {
      throw PackError.output(path: file.path, reason: "cannot lock the package (\(reason))")
    }
    let previous = lock.contents(limit: Self.limit)
    for line in previous.split(separator: UInt8(ascii: "\n")) {
      guard let path = try? JSONDecoder().decode(String.self, from: Data(line)) else { continue }
      if removeLeftover(path) { removed.append(path) }
    }
    lock.replaceContents(with: [])
  }

  /// Records `temporary` (below the package) before it is made.
  func record(_ temporary: URL) throws {
    let root = package.standardizedFileURL.path + "/"
    let path = temporary.standardizedFileURL.path
    guard path.hasPrefix(root), let line = try? JSONEncoder().encode(String(path.dropFirst(root.count))),
      lock.append(Array(line) + Array("\n".utf8))
    else {
      throw PackError.output(path: lock.path.path, reason: "cannot record a temporary file of the rewrite")
    }
  }

  /// Lets go of the lock and removes the file: nothing of this run is left to clean.
  func finish() { lock.release() }

  /// Removes the package's file at `path` if it is a temporary, reached without a link.
  private func removeLeftover(_ path: String) -> Bool {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard let name = parts.last, FileTransaction.isTemporary(name),
      !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." })
    else { return false }
    var url = package
    for part in parts.dropLast() {
      url.appendPathComponent(part)
      guard (try? FileStatus(path: url.path, followingLinks: false))?.kind == .folder else { return false }
    }
    url.appendPathComponent(name)
    guard (try? FileStatus(path: url.path, followingLinks: false))?.kind == .regular else { return false }
    return unlink(url.path) == 0
  }

  var removedNote: String? {
    guard !removed.isEmpty else { return nil }
    let list = removed.map { package.appendingPathComponent($0).path }.joined(separator: ", ")
    return "removed \(list): temporaries of a killed rewrite-keys run of this package"
  }
}
