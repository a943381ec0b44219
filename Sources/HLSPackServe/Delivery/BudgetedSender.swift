import NIOCore

/// Sends a body's chunks within the `BodyBudget`: room for a chunk is taken
/// before the chunk is read and passes to the connection's `BodyLedger` when
/// the chunk is written, so the bytes stay counted until the socket took them.
/// Without a ledger (no counter on the connection) chunks go uncounted.
struct BudgetedSender {
  let ledger: BodyLedger?

  /// The sender for a response on `channel`.
  init(on channel: any Channel) async {
    ledger = await BodyBytesCounter.ledger(of: channel)
  }

  /// Takes room for `length` bytes, reads them with `read` and writes them; returns the bytes read.
  @discardableResult
  func send(length: Int, to writer: inout ShapingWriter, read: () async throws -> ByteBuffer) async throws -> Int {
    guard let ledger else {
      let chunk = try await read()
      try await writer.write(chunk)
      return chunk.readableBytes
    }
    await ledger.budget.take(length)
    var held = length
    defer { if held > 0 { ledger.budget.giveBack(held) } }
    let chunk = try await read()
    if ledger.send(held) {
      held = 0
      do {
        try await writer.write(chunk)
      } catch {
        ledger.failed(length)
        throw error
      }
    } else {
      try await writer.write(chunk)
    }
    return chunk.readableBytes
  }
}
