import NIOCore
import NIOHTTPTypes

/// Counts each response body write in the `BodyBudget` from the moment it
/// enters the connection's pipeline until the socket took it or the
/// connection failed: the bytes queued behind a slow client, encrypted or not.
final class BodyBytesCounter: ChannelOutboundHandler, RemovableChannelHandler {
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  let ledger: BodyLedger

  init(budget: BodyBudget) {
    ledger = BodyLedger(budget: budget)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    guard case .body(let buffer) = unwrapOutboundIn(data), buffer.readableBytes > 0 else {
      context.write(data, promise: promise)
      return
    }
    let (bytes, budget) = (buffer.readableBytes, ledger.budget)
    ledger.arrived(bytes)
    let written = promise ?? context.eventLoop.makePromise()
    written.futureResult.whenComplete { _ in budget.giveBack(bytes) }
    context.write(data, promise: written)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    ledger.close()
  }

  /// The ledger of `channel`'s counter, looked up on its event loop; nil if it has none.
  static func ledger(of channel: any Channel) async -> BodyLedger? {
    try? await channel.eventLoop.submit {
      try channel.pipeline.syncOperations.handler(type: BodyBytesCounter.self).ledger
    }.get()
  }
}
