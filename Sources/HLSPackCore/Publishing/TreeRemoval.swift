import Foundation

/// Removes `url` and everything below it, without following symbolic links.
/// Another thread may be removing the same tree at the same time (the
/// signal handler and the run it interrupts): an entry that vanished is
/// skipped, where FileManager.removeItem would stop there and leave the rest.
func removeTree(at url: URL) {
  guard let status = try? FileStatus(path: url.path, followingLinks: false) else { return }
  guard status.kind == .folder else {
    unlink(url.path)
    return
  }
  for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] {
    removeTree(at: url.appendingPathComponent(name))
  }
  rmdir(url.path)
}
