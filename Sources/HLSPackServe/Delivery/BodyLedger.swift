import Synchronization

/// One connection's part of the `BodyBudget` in transit: room that senders
/// took for bytes they wrote, which the connection's `BodyBytesCounter` has
/// not seen yet. The counter takes that room over when the bytes arrive, so
/// each byte is counted once from the moment it is read until the socket took it.
final class BodyLedger: Sendable {
  let budget: BodyBudget
  private let state = Mutex((inTransit: 0, closed: false))

  init(budget: BodyBudget) {
    self.budget = budget
  }

  /// A sender is about to write `bytes` it took room for. False once the
  /// connection is gone: the sender then gives the room back itself.
  func send(_ bytes: Int) -> Bool {
    state.withLock { state in
      guard !state.closed else { return false }
      state.inTransit += bytes
      return true
    }
  }

  /// A sender's write of `bytes` failed: what of it never arrived goes back.
  func failed(_ bytes: Int) {
    budget.giveBack(takeInTransit(bytes))
  }

  /// The counter saw a body write of `bytes`: room in transit covers it,
  /// and whatever no sender took room for (texts, JSON) is added.
  func arrived(_ bytes: Int) {
    let covered = takeInTransit(bytes)
    if bytes > covered { budget.add(bytes - covered) }
  }

  /// Takes up to `bytes` of the room in transit off the ledger and returns how much it took.
  private func takeInTransit(_ bytes: Int) -> Int {
    state.withLock { state in
      let taken = min(bytes, state.inTransit)
      state.inTransit -= taken
      return taken
    }
  }

  /// The connection is gone: what is in transit will never arrive.
  func close() {
    let back = state.withLock { state in
      state.closed = true
      defer { state.inTransit = 0 }
      return state.inTransit
    }
    budget.giveBack(back)
  }
}
