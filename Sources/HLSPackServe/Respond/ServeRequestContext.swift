import Hummingbird
import NIOCore

/// The request context, with the connection: a rule can close it, and
/// throughput is paced per connection.
struct ServeRequestContext: RequestContext {
  var coreContext: CoreRequestContextStorage
  let channel: any Channel

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    channel = source.channel
  }

  /// Names this connection's pace; the channel lives as long as the connection.
  var connectionKey: String { "connection:\(ObjectIdentifier(channel).hashValue)" }
}
