import Foundation
import HLSPackCore

/// On SIGINT/SIGTERM, removes what unfinished work has on disk
/// (`StagingRegistry`), so an interrupted run leaves no partial package
/// behind, and exits 130.
enum InterruptCleanup {
  private enum State {
    case running
    /// The main thread is printing results and exiting; nothing is left to remove.
    case finishing
    case interrupted
  }

  private static let lock = NSLock()
  nonisolated(unsafe) private static var state = State.running

  /// Call before any thread is started. The signals are blocked in this
  /// thread, and so in every thread started later, which inherit the mask,
  /// and one thread of our own takes them with sigwait. A signal is then
  /// never lost (as it was between SIG_IGN and a dispatch source being
  /// armed), nor handled on a thread FFmpeg is using.
  static func install() {
    var signals = sigset_t()
    sigemptyset(&signals)
    // A signal the parent set to be ignored (`nohup`, a shell's background
    // job) stays ignored: Linux queues a blocked signal even when ignored.
    let handled = [SIGINT, SIGTERM].filter { !isIgnored($0) }
    guard !handled.isEmpty else { return }
    for signal in handled { sigaddset(&signals, signal) }
    pthread_sigmask(SIG_BLOCK, &signals, nil)
    let blocked = signals
    Thread.detachNewThread {
      var received: Int32 = 0
      var waited = blocked
      sigwait(&waited, &received)
      interrupted()
    }
  }

  private static func isIgnored(_ signal: Int32) -> Bool {
    var current = sigaction()
    guard sigaction(signal, nil, &current) == 0 else { return false }
    return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
  }

  /// The main thread calls this once the work is over (published or failed),
  /// before printing results: if an interrupt is being handled, it waits for
  /// the handler to exit 130 instead of exiting with another status.
  static func finishing() {
    let interrupted = lock.withLock {
      if state == .running { state = .finishing }
      return state == .interrupted
    }
    while interrupted { pause() }
  }

  /// `_exit`, not `exit`: atexit handlers and static destructors must not run
  /// while worker threads are still inside FFmpeg (that crashed with SIGSEGV).
  private static func interrupted() -> Never {
    let cleanUp = lock.withLock {
      defer { state = .interrupted }
      return state == .running
    }
    if cleanUp {
      StagingRegistry.shared.interrupt()
      StandardError.write("\nhlspack: interrupted; unfinished work was removed, finished work stays\n")
    }
    // Progress lines (--progress json) already printed reach the reader.
    fflush(nil)
    _exit(ExitStatus.interrupted.rawValue)
  }
}
