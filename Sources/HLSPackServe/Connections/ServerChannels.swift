import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOSSL
import Synchronization

/// The pipeline of each connection: the `ConnectionGuard` next to the
/// socket, TLS on the HTTPS listener, then HTTP/1.1 with the `BodyBytesCounter`
/// and the `RequestPhases` that feed the guard.
enum ServerChannels {
  static func http(budget: BodyBudget, limits: ConnectionLimits, connections: ConnectionCount) -> HTTPServerBuilder {
    HTTPServerBuilder { responder in
      GuardedChannel(responder: responder, budget: budget, limits: limits, connections: connections, tls: nil)
    }
  }

  static func https(
    budget: BodyBudget, limits: ConnectionLimits, connections: ConnectionCount, tls: TLSConfiguration
  ) throws -> HTTPServerBuilder {
    let context = try NIOSSLContext(configuration: tls)
    return HTTPServerBuilder { responder in
      GuardedChannel(responder: responder, budget: budget, limits: limits, connections: connections, tls: context)
    }
  }

  /// The ciphertext buffer kept between writes.
  static let preservedCiphertext: Int = 64 * 1024

  /// The body chunk whose ciphertext fits that buffer: four full TLS records
  /// (2^14 bytes of plaintext each, RFC 8446 section 5.1) less 32 bytes each
  /// for the record header and the AEAD tag. A whole 64 KiB chunk would grow
  /// the buffer to 128 KiB.
  static let bodyChunk: Int = 4 * (16 * 1024 - 32)
}

/// The connections open over both listeners, against `ConnectionLimits.maxConnections`.
final class ConnectionCount: Sendable {
  let limit: Int
  private let open = Atomic(0)

  init(limit: Int) {
    self.limit = limit
  }

  /// Counts `channel` until it closes, or says no when the limit is reached.
  func admit(_ channel: any Channel) -> Bool {
    let count = open.add(1, ordering: .relaxed).newValue
    guard count <= limit else {
      open.subtract(1, ordering: .relaxed)
      return false
    }
    channel.closeFuture.whenComplete { _ in self.open.subtract(1, ordering: .relaxed) }
    return true
  }
}

/// One connection of either listener, guarded by `ConnectionLimits`.
struct GuardedChannel: ServerChildChannel {
  typealias Value = HTTP1Channel.Value
  let responder: HTTPChannelHandler.Responder
  let budget: BodyBudget
  let limits: ConnectionLimits
  let connections: ConnectionCount
  let tls: NIOSSLContext?

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    let (limits, tls, budget) = (limits, tls, budget)
    return channel.eventLoop.makeCompletedFuture {
      let pipeline = channel.pipeline.syncOperations
      try pipeline.addHandler(ConnectionGuard(limits: limits))
      if let tls {
        // NIOSSL keeps a connection's ciphertext buffer at the largest size it ever
        // reached unless told otherwise; capped at one body chunk's ciphertext.
        var configuration = NIOSSLHandler.Configuration()
        configuration.maximumPreservedOutboundBufferCapacity = ServerChannels.preservedCiphertext
        try pipeline.addHandler(NIOSSLServerHandler(context: tls, configuration: configuration))
      }
    }.flatMap {
      let http = HTTP1Channel(
        responder: responder,
        configuration: .init(additionalChannelHandlers: [BodyBytesCounter(budget: budget), RequestPhases()]))
      return http.setup(channel: channel, logger: logger)
    }.map { value in
      // Closed at once rather than left waiting in the accept queue, or taking the
      // descriptors that files and the origin's connections need. A failed setup
      // would end the listener's stream of connections, so the value goes on, closed.
      if !connections.admit(channel) { channel.close(promise: nil) }
      return value
    }
  }

  func handle(value: Value, logger: Logger) async {
    await HTTP1Channel(responder: responder).handle(value: value, logger: logger)
  }
}
