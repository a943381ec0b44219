import Foundation

/// A bounded blocking queue between two threads (the decoder and a rung's
/// worker; a muxer and its segment writer). The bound keeps memory flat: the
/// producer waits for the slower consumer instead of buffering.
public final class WorkQueue<Item>: @unchecked Sendable {
  private let condition = NSCondition()
  private var items: [Item] = []
  private var head = 0
  private let capacity: Int
  private var closed = false
  private var aborted = false

  public init(capacity: Int) { self.capacity = capacity }

  /// Blocks while full. Returns false once the consumer has aborted.
  public func put(_ item: Item) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while items.count - head >= capacity && !aborted { condition.wait() }
    guard !aborted else { return false }
    items.append(item)
    condition.broadcast()
    return true
  }

  /// Blocks while empty. Returns nil when closed and drained, or aborted.
  public func take() -> Item? {
    condition.lock()
    defer { condition.unlock() }
    while head == items.count && !closed && !aborted { condition.wait() }
    guard !aborted, head < items.count else { return nil }
    let item = items[head]
    head += 1
    if head > 64 && head * 2 > items.count {
      items.removeFirst(head)
      head = 0
    }
    condition.broadcast()
    return item
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
    head = 0
    condition.broadcast()
    condition.unlock()
  }
}
