import Foundation

/// What unfinished work has on disk (staging folders, temporaries), removed by
/// the CLI's signal handler so that an interrupted run leaves nothing behind.
///
/// The handler runs while the other threads go on, so two rules keep it from
/// missing anything: a path is registered before it is created, and every
/// creation inside unfinished work runs through `unlessInterrupted`, which
/// refuses once `interrupt()` has begun. Nothing new can then appear in a
/// folder while, or after, it is removed.
public final class StagingRegistry: @unchecked Sendable {
  public static let shared = StagingRegistry()
  private let lock = NSLock()
  private var paths: Set<URL> = []
  private var interrupted = false

  init() {}

  /// Fails once interrupted: the handler has already removed what it knew of.
  public func register(_ url: URL) throws {
    try unlessInterrupted(at: url.path) { registered in _ = registered.insert(url) }
  }

  public func unregister(_ url: URL) { lock.withLock { _ = paths.remove(url) } }

  /// Runs `step` unless an interrupt has begun; an interrupt arriving
  /// meanwhile waits for it. For creating files and folders in unfinished work.
  public func unlessInterrupted<T>(at path: String, _ step: () throws -> T) throws -> T {
    try unlessInterrupted(at: path) { _ in try step() }
  }

  /// The same for a step that also changes what is registered, such as a
  /// publish: the renames and the registry change together, so an interrupt
  /// sees everything before the step or everything after it.
  public func unlessInterrupted<T>(at path: String, editing step: (inout Set<URL>) throws -> T) throws -> T {
    try lock.withLock {
      guard !interrupted else { throw PackError.output(path: path, reason: "interrupted") }
      return try step(&paths)
    }
  }

  /// Removes everything registered and refuses any later creation. For the
  /// signal handler, which exits right after.
  public func interrupt() {
    lock.withLock {
      interrupted = true
      for url in paths { removeTree(at: url) }
      paths = []
    }
  }
}
