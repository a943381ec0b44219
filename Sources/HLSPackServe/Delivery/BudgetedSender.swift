import NIOCore

/// Sends a body's chunks within the `BodyBudget`: room for a chunk is taken
/// before the chunk is read, and given back once the connection's event loop
/// took the write, from when `BodyBytesCounter` counts it. The next chunk is
/// read while the last one is handed over, so reading and sending overlap;
/// a sender never waits for room while holding room it could give back.
struct BudgetedSender {
  let budget: BodyBudget
  let loop: any EventLoop
  private var handover: EventLoopFuture<Void>?

  init(budget: BodyBudget, loop: any EventLoop) {
    self.budget = budget
    self.loop = loop
  }

  /// Takes room for `length` bytes, reads them with `read` and writes them; returns the bytes read.
  @discardableResult
  mutating func send(
    length: Int, to writer: inout ShapingWriter, read: () async throws -> ByteBuffer
  ) async throws -> Int {
    await budget.take(length)
    var held = length
    defer { if held > 0 { budget.giveBack(held) } }
    let chunk = try await read()
    _ = try? await handover?.get()
    try await writer.write(chunk)
    let (budget, bytes) = (budget, held)
    held = 0
    let done = loop.submit {}
    done.whenComplete { _ in budget.giveBack(bytes) }
    handover = done
    return chunk.readableBytes
  }
}
