import Foundation

/// Hands the buffers that carry segment parts back and forth between the
/// muxers, which fill them, and the segment writers, which are done with them
/// once the part is on disk. A recycled buffer keeps its capacity; without the
/// pool every part landed in freshly mapped memory and paid a page fault per
/// 4 KiB (docs/design/segment-writers.md). The pool only ever holds buffers that were once in flight
/// at the same time, so it cannot raise peak memory.
public final class PartBufferPool: @unchecked Sendable {
  public static let shared = PartBufferPool()

  private let lock = NSLock()
  private var idle: [[UInt8]] = []
  /// A bound against a caller that recycles buffers it never took.
  private let limit = 16

  public init() {}

  /// An empty buffer, with the capacity of a recycled one when there is one.
  public func take() -> [UInt8] {
    var buffer = takeFilled()
    // Keeps the allocation when nothing else holds it (the writer has let go).
    buffer.removeAll(keepingCapacity: true)
    return buffer
  }

  /// A recycled buffer with its old contents, for a caller that overwrites
  /// them (emptied, it would have to write zeros to grow it again).
  public func takeFilled() -> [UInt8] {
    lock.withLock { idle.popLast() } ?? []
  }

  /// Takes the buffer out of `bytes` (leaving it empty) for a later `take()` or `takeFilled()`.
  public func recycle(_ bytes: inout [UInt8]) {
    var buffer: [UInt8] = []
    swap(&buffer, &bytes)
    guard buffer.capacity > 0 else { return }
    lock.withLock {
      if idle.count < limit { idle.append(buffer) }
    }
  }
}
