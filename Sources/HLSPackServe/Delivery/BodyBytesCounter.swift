import NIOCore
import NIOHTTPTypes

/// Counts each response body write in the `BodyBudget` from the moment it
/// enters the connection's pipeline until the socket took it or the
/// connection failed: the bytes queued behind a slow client, encrypted or not.
final class BodyBytesCounter: ChannelOutboundHandler, RemovableChannelHandler {
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  private let budget: BodyBudget

  init(budget: BodyBudget) {
    self.budget = budget
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    guard case .body(let buffer) = unwrapOutboundIn(data), buffer.readableBytes > 0 else {
      context.write(data, promise: promise)
      return
    }
    let bytes = buffer.readableBytes
    let budget = budget
    budget.add(bytes)
    let written = promise ?? context.eventLoop.makePromise()
    written.futureResult.whenComplete { _ in budget.giveBack(bytes) }
    context.write(data, promise: written)
  }
}
