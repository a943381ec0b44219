import Synchronization

/// The response body bytes this process holds at once, over all connections:
/// bytes read from a file or taken from the origin that the socket has not
/// yet accepted. A sender takes room for a chunk before it reads it; the room
/// passes through the connection's `BodyLedger` to its `BodyBytesCounter`,
/// which gives it back when the socket took the bytes. Memory then stays
/// bounded by the limit, not by the number of connections times what each
/// one buffers (docs/design/serve-memory.md).
final class BodyBudget: Sendable {
  let limit: Int
  private let state = Mutex(State())

  private struct State {
    var held = 0
    var waiters: [(bytes: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Holds `bytes` if they fit, or if nothing is held (a chunk larger than the limit still goes, alone).
    mutating func hold(_ bytes: Int, limit: Int) -> Bool {
      guard held == 0 || held + bytes <= limit else { return false }
      held += bytes
      return true
    }
  }

  /// Room for a few chunks per connection of a small load; a large load takes
  /// turns (docs/design/serve-memory.md).
  static let defaultLimit = 16 * 1024 * 1024

  init(limit: Int = BodyBudget.defaultLimit) {
    self.limit = limit
  }

  /// Bytes held now.
  var held: Int { state.withLock { $0.held } }

  /// Waits, first come first served, until `bytes` fit, and holds them.
  func take(_ bytes: Int) async {
    let limit = limit
    if state.withLock({ $0.waiters.isEmpty && $0.hold(bytes, limit: limit) }) { return }
    await withCheckedContinuation { continuation in
      let held = state.withLock { state in
        if state.waiters.isEmpty, state.hold(bytes, limit: limit) { return true }
        state.waiters.append((bytes, continuation))
        return false
      }
      if held { continuation.resume() }
    }
  }

  /// Holds bytes that are in memory already, without waiting.
  func add(_ bytes: Int) {
    state.withLock { $0.held += bytes }
  }

  /// Gives `bytes` back and wakes the waiters that now fit, in their order.
  func giveBack(_ bytes: Int) {
    let limit = limit
    let woken = state.withLock { state in
      state.held -= bytes
      var woken: [CheckedContinuation<Void, Never>] = []
      while let first = state.waiters.first, state.hold(first.bytes, limit: limit) {
        woken.append(first.continuation)
        state.waiters.removeFirst()
      }
      return woken
    }
    for continuation in woken { continuation.resume() }
  }
}
