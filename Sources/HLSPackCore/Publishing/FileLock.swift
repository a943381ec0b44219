import Foundation

/// An exclusive claim that two processes cannot hold at once: flock(2) on a
/// hidden lock file, taken without waiting. The lock file exists only while
/// it is held: the holder removes it before letting go, and a run that
/// locked a file someone removed meanwhile (its name now names another file,
/// or none) tries again, so a removed lock file never lets two runs in.
/// A run killed with SIGKILL leaves the file, unlocked: the kernel lets go
/// of a dead process's locks, and the next holder removes it.
///
/// flock(2) locks work between processes and between two opens in one
/// process; Linux's NFS client (since 2.6.12) maps them to the server's
/// byte-range locks, so runs on several machines sharing a folder exclude
/// one another too.
public final class FileLock: @unchecked Sendable {
  public let path: URL
  private let registry: StagingRegistry
  private let lock = NSLock()
  private var descriptor: Int32

  /// Why a lock could not be taken.
  public enum Failure: Error, Equatable {
    /// Another run (or another claim of this one) holds it.
    case held
    /// The lock file cannot be made or locked: the reason in words.
    case unusable(String)
  }

  /// Takes the lock at `path` (its folder must exist). While another holds
  /// it: fails at once, or with `waiting` tries again every 50 ms until it
  /// is free (outside the registry's lock, so an interrupt is never held
  /// up). The file is registered with `registry`, so an interrupted run
  /// removes it.
  public init(at path: URL, registry: StagingRegistry = .shared, waiting: Bool = false) throws(Failure) {
    self.path = path
    self.registry = registry
    var replaced = 0
    while replaced < 100 {
      // Made, locked and registered in one step an interrupt cannot split.
      let taken: Result<Int32?, Failure>
      do {
        taken = try registry.unlessInterrupted(at: path.path) { registered in
          let result = Result { () throws(Failure) in try Self.lockIfCurrent(path.path) }
          if case .success(.some) = result { registered.insert(path) }
          return result
        }
      } catch {
        throw .unusable("interrupted")
      }
      switch taken {
      case .success(let descriptor?):
        self.descriptor = descriptor
        return
      case .success(nil): replaced += 1
      case .failure(.held) where waiting: usleep(50_000)
      case .failure(let failure): throw failure
      }
    }
    throw .unusable("the lock file keeps being replaced")
  }

  /// Opens and locks the file; nil when the file locked is no longer the
  /// one at `path` (its holder removed it while this run waited to lock it).
  private static func lockIfCurrent(_ path: String) throws(Failure) -> Int32? {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard fd >= 0 else { throw .unusable(SystemError.last.reason) }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      let failure = errno
      close(fd)
      if failure == EWOULDBLOCK { throw .held }
      throw .unusable(SystemError(code: failure).reason)
    }
    guard let opened = try? FileStatus(descriptor: fd),
      let named = try? FileStatus(path: path, followingLinks: false), opened.isSameFile(as: named)
    else {
      close(fd)
      return nil
    }
    return fd
  }

  /// What the lock file holds: what its previous holder wrote, when that
  /// holder was killed before it could remove the file (see `RewriteJournal`).
  public func contents(limit: Int) -> [UInt8] {
    lock.withLock {
      guard descriptor >= 0, lseek(descriptor, 0, SEEK_SET) == 0 else { return [] }
      var bytes: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 65536)
      while bytes.count < limit {
        let count = read(descriptor, &chunk, min(chunk.count, limit - bytes.count))
        guard count > 0 else { break }
        bytes += chunk[..<count]
      }
      return bytes
    }
  }

  /// Empties the lock file, then appends `bytes` to it; false on a failure.
  @discardableResult
  public func replaceContents(with bytes: [UInt8]) -> Bool {
    lock.withLock { descriptor >= 0 && ftruncate(descriptor, 0) == 0 && writeAll(bytes, at: 0) }
  }

  /// Appends `bytes` to the lock file; false on a failure.
  public func append(_ bytes: [UInt8]) -> Bool {
    lock.withLock {
      guard descriptor >= 0 else { return false }
      let end = lseek(descriptor, 0, SEEK_END)
      return end >= 0 && writeAll(bytes, at: end)
    }
  }

  private func writeAll(_ bytes: [UInt8], at offset: off_t) -> Bool {
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, offset + off_t(written)) }
      guard count > 0 else { return false }
      written += count
    }
    return true
  }

  /// Removes the lock file, then lets go. Once only; later calls do nothing.
  public func release() {
    lock.withLock {
      guard descriptor >= 0 else { return }
      // An interrupt's cleanup may have removed it, and another run made a new one since.
      if let opened = try? FileStatus(descriptor: descriptor),
        let named = try? FileStatus(path: path.path, followingLinks: false), opened.isSameFile(as: named)
      {
        unlink(path.path)
      }
      registry.unregister(path)
      close(descriptor)
      descriptor = -1
    }
  }

  deinit { release() }
}
