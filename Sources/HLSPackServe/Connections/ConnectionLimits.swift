import Foundation
import NIOCore

/// How long a connection may wait on its client, and how many connections
/// are served at once: a client that opens connections and sends nothing, or
/// half a request head, or stops reading, cannot hold them (or the process's
/// file descriptors) for ever. The timeouts are those of nginx's
/// `client_header_timeout`, `keepalive_timeout` and `send_timeout`.
public struct ConnectionLimits: Sendable, Equatable {
  /// From the connection's accept, or from the first byte after an idle
  /// wait, until the request head is complete; and from the head to the end
  /// of the request's body, if it has one.
  public var headerTimeout: Duration
  /// Between the end of a response and the first byte of the next request.
  public var idleTimeout: Duration
  /// While response bytes wait for the client to take them: the time since it last took some.
  public var sendTimeout: Duration
  /// Connections beyond this many, over HTTP and HTTPS together, are closed at once.
  public var maxConnections: Int

  public static let defaultHeaderTimeout = Duration.seconds(20)
  public static let defaultIdleTimeout = Duration.seconds(30)
  public static let defaultSendTimeout = Duration.seconds(60)
  /// The default cap when the file limit allows more: enough for any test
  /// rig of players, and a bound on the memory idle connections hold.
  public static let largestDefaultCap = 4096

  public init(
    headerTimeout: Duration = defaultHeaderTimeout, idleTimeout: Duration = defaultIdleTimeout,
    sendTimeout: Duration = defaultSendTimeout, maxConnections: Int? = nil
  ) {
    self.headerTimeout = headerTimeout
    self.idleTimeout = idleTimeout
    self.sendTimeout = sendTimeout
    self.maxConnections = maxConnections ?? Self.connectionsTheFileLimitAllows(Self.openFileLimit())
  }

  /// A duration in seconds, as the options take it: `20`, `1.5`.
  public static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  /// The soft RLIMIT_NOFILE of this process; nil if it cannot be read or is unlimited.
  public static func openFileLimit() -> Int? {
    var limit = rlimit()
    // RLIM_INFINITY is all ones on Linux: no Int holds it.
    #if os(Linux)
      let resource = Int32(RLIMIT_NOFILE.rawValue)
    #else
      let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &limit) == 0 else { return nil }
    return Int(exactly: limit.rlim_cur)
  }

  /// File descriptors kept for everything but connections: standard streams,
  /// the log, the listeners, and the event loops' (a few per core).
  static var reservedDescriptors: Int { 64 + 4 * System.coreCount }

  /// The most connections whose descriptors fit under `fileLimit`: each may
  /// hold a second one, the file it sends or its connection to the origin.
  static func connectionsTheFileLimitAllows(_ fileLimit: Int?) -> Int {
    guard let fileLimit else { return largestDefaultCap }
    return min(largestDefaultCap, max(1, (fileLimit - reservedDescriptors) / 2))
  }

  /// The most connections `--max-connections` may ask for under the file limit.
  public static func largestAllowedCap(_ fileLimit: Int?) -> Int? {
    fileLimit.map { max(1, ($0 - reservedDescriptors) / 2) }
  }
}
