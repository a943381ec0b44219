import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOSSL

/// The pipeline of each connection: HTTP/1.1 with the `BodyBytesCounter`,
/// behind TLS on the HTTPS listener.
enum ServerChannels {
  static func http(budget: BodyBudget) -> HTTPServerBuilder {
    .http1(configuration: http1Configuration(budget: budget))
  }

  static func https(budget: BodyBudget, tls: TLSConfiguration) throws -> HTTPServerBuilder {
    let context = try NIOSSLContext(configuration: tls)
    return HTTPServerBuilder { responder in
      TLSServerChannel(
        base: HTTP1Channel(responder: responder, configuration: http1Configuration(budget: budget)), context: context)
    }
  }

  /// The ciphertext buffer kept between writes.
  static let preservedCiphertext: Int = 64 * 1024

  /// The body chunk whose ciphertext fits that buffer: four full TLS records
  /// (2^14 bytes of plaintext each, RFC 8446 section 5.1) less 32 bytes each
  /// for the record header and the AEAD tag. A whole 64 KiB chunk would grow
  /// the buffer to 128 KiB.
  static let bodyChunk: Int = 4 * (16 * 1024 - 32)

  private static func http1Configuration(budget: BodyBudget) -> HTTP1Channel.Configuration {
    .init(additionalChannelHandlers: [BodyBytesCounter(budget: budget)])
  }
}

/// TLS in front of a child channel. NIOSSL keeps a connection's ciphertext
/// buffer at the largest size it ever reached unless told otherwise; capped
/// at one body chunk's ciphertext, a connection keeps at most that.
struct TLSServerChannel<Base: ServerChildChannel>: ServerChildChannel {
  typealias Value = Base.Value
  let base: Base
  let context: NIOSSLContext

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    let context = context
    return channel.eventLoop.makeCompletedFuture {
      var configuration = NIOSSLHandler.Configuration()
      configuration.maximumPreservedOutboundBufferCapacity = ServerChannels.preservedCiphertext
      try channel.pipeline.syncOperations.addHandler(
        NIOSSLServerHandler(context: context, configuration: configuration))
    }.flatMap {
      base.setup(channel: channel, logger: logger)
    }
  }

  func handle(value: Value, logger: Logger) async {
    await base.handle(value: value, logger: logger)
  }
}
