import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// The origin of proxy mode (`--upstream URL`): request paths are appended to
/// its URL, redirects are passed to the client rather than followed, and
/// bodies arrive as streams, so a segment is never held whole in memory.
final class Upstream: Sendable {
  /// The origin's URL without a trailing slash.
  let base: String
  private let client: HTTPClient
  /// Whether each playlist path seen is a master playlist: the rules need a
  /// request's kind before the origin is asked for it, and a playlist keeps its kind.
  private let masterPlaylists = Mutex<[String: Bool]>([:])

  /// Time allowed for the origin's response head; the body then has `read` between chunks.
  static let headTimeout = TimeAmount.seconds(30)

  init(url: String) throws {
    guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
      scheme == "http" || scheme == "https"
    else { throw ServeError.upstreamInvalid(url: url, reason: "expected an http:// or https:// URL") }
    guard let host = components.host, !host.isEmpty else {
      throw ServeError.upstreamInvalid(url: url, reason: "no host")
    }
    guard components.query == nil, components.fragment == nil else {
      throw ServeError.upstreamInvalid(url: url, reason: "a query or fragment cannot prefix request paths")
    }
    base = url.hasSuffix("/") ? String(url.dropLast()) : url
    var configuration = HTTPClient.Configuration()
    configuration.redirectConfiguration = .disallow
    configuration.timeout = .init(connect: .seconds(10), read: .seconds(60))
    configuration.decompression = .disabled
    // The player under test should see a 502 at once when the origin is down,
    // not after the client's retries with back-off have used up the connect timeout.
    configuration.connectionPool.retryConnectionEstablishment = false
    // Players fetch several renditions at once; 8 connections (the default) would queue them.
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
    client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
  }

  /// Must run once before the last reference goes: the client checks that it was shut down.
  func shutdown() async {
    try? await client.shutdown()
  }

  /// The origin's URL for a request path (with its leading slash, still percent-encoded) and query.
  func url(requestPath: String, query: String?) -> String {
    base + requestPath + (query.map { "?" + $0 } ?? "")
  }

  /// Sends one request; the response's body must be read or dropped by the caller.
  func fetch(_ method: HTTPMethod, url: String, headers: HTTPHeaders) async throws -> HTTPClientResponse {
    var request = HTTPClientRequest(url: url)
    request.method = method
    request.headers = headers
    return try await client.execute(request, timeout: Self.headTimeout)
  }

  /// Classifies a playlist by its first 64 KiB at the origin (RFC 8216bis
  /// section 4.4.6: the tags of a master playlist come before its URIs). An
  /// origin that cannot answer leaves it a media playlist, and unremembered.
  func isMasterPlaylist(requestPath: String) async -> Bool {
    if let known = masterPlaylists.withLock({ $0[requestPath] }) { return known }
    let limit = 64 * 1024
    var head = ByteBuffer()
    do {
      let response = try await fetch(
        .GET, url: url(requestPath: requestPath, query: nil), headers: ["Accept-Encoding": "identity"])
      guard response.status == .ok else { return false }
      for try await chunk in response.body {
        head.writeImmutableBuffer(chunk)
        if head.readableBytes >= limit { break }
      }
    } catch {
      return false
    }
    let isMaster = RequestTarget.isMasterPlaylist(text: String(buffer: head))
    masterPlaylists.withLock { $0[requestPath] = isMaster }
    return isMaster
  }

  /// The error as the log and the 502 body name it.
  static func describe(_ error: any Error) -> String {
    if let error = error as? HTTPClientError { return "\(error)" }
    return String(describing: error)
  }
}
