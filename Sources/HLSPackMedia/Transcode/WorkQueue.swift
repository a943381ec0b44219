import Foundation

/// A bounded blocking queue between two threads (the decoder and a rung's
/// worker; a muxer and its segment writer). The bound keeps memory flat: the
/// producer waits for the slower consumer instead of buffering.
public final class WorkQueue<Item>: @unchecked Sendable {
  private let condition = NSCondition()
  private var items: [Item] = []
  private let capacity: Int
  private var closed = false
  private var aborted = false

  public init(capacity: Int) { self.capacity = capacity }

  /// Blocks while full. Returns false once the consumer has aborted.
  public func put(_ item: Item) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    // The consumer may be gone once the queue is closed: a full queue would wait forever.
    precondition(!closed, "an item put after close()")
    while items.count >= capacity && !aborted { condition.wait() }
    guard !aborted else { return false }
    items.append(item)
    condition.broadcast()
    return true
  }

  /// Blocks while empty. Returns nil when closed and drained, or aborted.
  public func take() -> Item? {
    condition.lock()
    defer { condition.unlock() }
    while items.isEmpty && !closed && !aborted { condition.wait() }
    guard !aborted, !items.isEmpty else { return nil }
    // Removed at once, so a taken item (a frame, a segment) is freed as soon as
    // its consumer is done with it; the queue is small, the shift is cheap.
    let item = items.removeFirst()
    condition.broadcast()
    return item
  }

  /// How many waiting items match, for a producer that adapts to the backlog.
  public func count(where matches: (Item) -> Bool) -> Int {
    condition.withLock { items.count(where: matches) }
  }

  /// No more items will come.
  public func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }

  /// The consumer gives up: producers stop blocking and learn of it.
  public func abort() {
    condition.lock()
    aborted = true
    items.removeAll()
    condition.broadcast()
    condition.unlock()
  }
}
