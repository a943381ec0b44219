import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client keeps it waiting (`ConnectionLimits`):
/// the first handler of the pipeline, next to the socket, so it sees every
/// byte read (a TLS handshake's too) and when the socket took each write;
/// `RequestPhases`, among the HTTP handlers, tells it where requests begin and end.
///
/// One timer per connection, armed for the earliest deadline of the current
/// phase; when it fires early (the phase moved on), it is armed again.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  typealias OutboundIn = IOData
  typealias OutboundOut = IOData

  /// What the connection waits for.
  private enum Phase {
    /// A request head: since the accept, or since the first byte after an idle wait.
    case head(since: NIODeadline)
    /// The first byte of the next request, since the last response ended.
    case idle(since: NIODeadline)
    /// The rest of the request (its body), since its head came: a body sent
    /// a byte at a time must not hold the connection for ever either.
    case body(since: NIODeadline)
    /// The response: only a client that stops taking it is timed.
    case responding
  }

  private let limits: ConnectionLimits
  private var phase: Phase = .head(since: .now())
  /// Requests whose head was read and whose response has not ended (pipelined ones included).
  private var openRequests = 0
  /// Writes the socket has not taken whole yet, and when it last took one.
  private var pendingWrites = 0
  private var lastWriteTaken = NIODeadline.now()
  private var timer: (deadline: NIODeadline, task: Scheduled<Void>)?

  init(limits: ConnectionLimits) {
    self.limits = limits
  }

  func handlerAdded(context: ChannelHandlerContext) {
    phase = .head(since: .now())
    arm(context)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    timer?.task.cancel()
    timer = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if case .idle = phase {
      phase = .head(since: .now())
      arm(context)
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if pendingWrites == 0 { lastWriteTaken = .now() }
    pendingWrites += 1
    let taken = promise ?? context.eventLoop.makePromise()
    taken.futureResult.assumeIsolated().whenComplete { _ in
      self.pendingWrites -= 1
      self.lastWriteTaken = .now()
    }
    arm(context)
    context.write(data, promise: taken)
  }

  // MARK: Request boundaries, from `RequestPhases`

  func requestHeadRead(context: ChannelHandlerContext) {
    openRequests += 1
    phase = .body(since: .now())
    arm(context)
  }

  func requestEndRead() {
    if case .body = phase { phase = .responding }
  }

  /// The server answers: a body it has not read yet is no longer waited for.
  func responseStarted() {
    if case .body = phase { phase = .responding }
  }

  func responseEnded(context: ChannelHandlerContext) {
    openRequests = max(0, openRequests - 1)
    guard openRequests == 0 else { return }
    phase = .idle(since: .now())
    arm(context)
  }

  // MARK: The timer

  /// When the client is late with its request if nothing changes; nil: not waited for.
  private var readDeadline: NIODeadline? {
    switch phase {
    case .head(let since), .body(let since): since + TimeAmount(limits.headerTimeout)
    case .idle(let since): since + TimeAmount(limits.idleTimeout)
    case .responding: nil
    }
  }

  /// When the client is late taking the response's bytes; nil: none wait.
  private var sendDeadline: NIODeadline? {
    pendingWrites > 0 ? lastWriteTaken + TimeAmount(limits.sendTimeout) : nil
  }

  /// Schedules the check for the earlier deadline, unless one is scheduled for earlier still.
  private func arm(_ context: ChannelHandlerContext) {
    guard let deadline = [readDeadline, sendDeadline].compactMap({ $0 }).min() else { return }
    if let timer {
      guard deadline < timer.deadline else { return }
      timer.task.cancel()
    }
    let task = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) {
      self.timer = nil
      self.check(context)
    }
    timer = (deadline, task)
  }

  private func check(_ context: ChannelHandlerContext) {
    let now = NIODeadline.now()
    if let readDeadline, readDeadline <= now {
      context.close(promise: nil)
    } else if let sendDeadline, sendDeadline <= now {
      checkSending(context)
    } else {
      arm(context)
    }
  }

  /// NIO completes a write when the socket took all of it, and the kernel
  /// wakes a writer only when a third or so of its send buffer (up to
  /// megabytes) is free: a client that reads slowly but steadily would seem
  /// stalled. On Linux the socket says when it last sent data (TCP_INFO),
  /// which it can only do while the client takes some.
  private func checkSending(_ context: ChannelHandlerContext) {
    #if os(Linux)
      guard let socket = context.channel as? any SocketOptionProvider else {
        context.close(promise: nil)
        return
      }
      socket.getTCPInfo().assumeIsolated().whenComplete { result in
        let sinceLastData = (try? result.get()).map { TimeAmount.milliseconds(Int64($0.tcpi_last_data_sent)) }
        if let sinceLastData, sinceLastData < TimeAmount(self.limits.sendTimeout) {
          self.lastWriteTaken = max(self.lastWriteTaken, .now() - sinceLastData)
          self.arm(context)
        } else {
          context.close(promise: nil)
        }
      }
    #else
      context.close(promise: nil)
    #endif
  }
}

/// Tells the connection's `ConnectionGuard` where each request's head and
/// body end and where its response begins and ends, as HTTP parts pass.
final class RequestPhases: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  private var connectionGuard: ConnectionGuard?
  private var guardContext: ChannelHandlerContext?

  func handlerAdded(context: ChannelHandlerContext) {
    let pipeline = context.pipeline.syncOperations
    connectionGuard = try? pipeline.handler(type: ConnectionGuard.self)
    guardContext = try? pipeline.context(handlerType: ConnectionGuard.self)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    connectionGuard = nil
    guardContext = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if let connectionGuard, let guardContext {
      switch unwrapInboundIn(data) {
      case .head: connectionGuard.requestHeadRead(context: guardContext)
      case .end: connectionGuard.requestEndRead()
      case .body: break
      }
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if let connectionGuard, let guardContext {
      switch unwrapOutboundIn(data) {
      case .head: connectionGuard.responseStarted()
      case .end: connectionGuard.responseEnded(context: guardContext)
      case .body: break
      }
    }
    context.write(data, promise: promise)
  }
}
