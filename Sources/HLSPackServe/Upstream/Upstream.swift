import AsyncHTTPClient
import Foundation
import HLSPackCore
import NIOCore
import NIOHTTP1
import Synchronization

/// The origin of proxy mode (`--upstream URL`): request paths are appended to
/// its URL, redirects are passed to the client rather than followed, and
/// bodies arrive as streams, so a segment is never held whole in memory.
final class Upstream: Sendable {
  /// The origin's URL without a trailing slash.
  let base: String
  /// Whether each playlist path seen is a master playlist: the rules need a
  /// request's kind before the origin is asked for it, and a playlist keeps its kind.
  private let masterPlaylists = Mutex<[String: Bool]>([:])

  /// The clients of the origin: pooled connections, and fresh ones for
  /// the retry of a request whose pooled connection was found closed.
  private let client: HTTPClient
  private let freshClient: HTTPClient
  /// Time allowed for one request to the origin: its response head, and the
  /// whole body when it is read before the answer (playlists and keys).
  /// A streamed body then has `read` between chunks.
  let timeout: Duration

  init(url: String, timeout: Duration = .seconds(30)) throws {
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
    self.timeout = timeout
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
    configuration.maximumUsesPerConnection = 1
    freshClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
  }

  /// Must run once before the last reference goes: the client checks that it was shut down.
  func shutdown() async {
    try? await client.shutdown()
    try? await freshClient.shutdown()
  }

  /// The origin's URL for a request path (with its leading slash, still percent-encoded) and query.
  func url(requestPath: String, query: String?) -> String {
    base + requestPath + (query.map { "?" + $0 } ?? "")
  }

  /// Sends one request, whose head must arrive by `deadline`; the response's
  /// body must be read or dropped by the caller. An origin may close a kept-alive
  /// connection just as the pool hands it out (RFC 9112 section 9.3.1 allows
  /// it); GET and HEAD are then sent again once, on a new connection
  /// (RFC 9110 section 9.2.2: they are idempotent).
  func fetch(
    _ method: HTTPMethod, url: String, headers: HTTPHeaders, by deadline: NIODeadline
  ) async throws -> HTTPClientResponse {
    var request = HTTPClientRequest(url: url)
    request.method = method
    request.headers = headers
    do {
      return try await client.execute(request, deadline: deadline)
    } catch  where (method == .GET || method == .HEAD) && Self.foundClosed(error) {
      return try await freshClient.execute(request, deadline: deadline)
    }
  }

  /// Whether the request failed because its connection was closed under it,
  /// before a response came (a refused or timed-out connection is not retried).
  static func foundClosed(_ error: any Error) -> Bool {
    if let error = error as? HTTPClientError { return error == .remoteConnectionClosed }
    if let error = error as? ChannelError { return error == .ioOnClosedChannel || error == .eof }
    if let error = error as? IOError { return error.errnoCode == ECONNRESET || error.errnoCode == EPIPE }
    return false
  }

  /// A whole body of at most `limit` bytes, read by `deadline`.
  func collect(_ body: HTTPClientResponse.Body, upTo limit: Int, by deadline: NIODeadline) async throws -> ByteBuffer {
    try await within(deadline) {
      do {
        return try await body.collect(upTo: limit)
      } catch is NIOTooManyBytesError {
        throw OriginFailure.bodyTooLarge(limit: limit)
      }
    }
  }

  /// What `work` returns, unless `deadline` comes first: then it is cancelled,
  /// which closes its connection to the origin.
  private func within<Value: Sendable>(
    _ deadline: NIODeadline, _ work: @escaping @Sendable () async throws -> Value
  ) async throws -> Value {
    let timeout = timeout
    return try await withThrowingTaskGroup(of: Value?.self) { group in
      group.addTask { try await work() }
      group.addTask {
        try await Task.sleep(for: .nanoseconds(max(0, (deadline - .now()).nanoseconds)))
        return nil
      }
      defer { group.cancelAll() }
      guard let first = try await group.next(), let value = first else {
        throw OriginFailure.tooSlow(timeout: timeout)
      }
      return value
    }
  }

  /// Classifies a playlist by its first 64 KiB at the origin (RFC 8216bis
  /// section 4.4.6: the tags of a master playlist come before its URIs). An
  /// origin that cannot answer leaves it a media playlist, and unremembered.
  func isMasterPlaylist(requestPath: String) async -> Bool {
    if let known = masterPlaylists.withLock({ $0[requestPath] }) { return known }
    let limit = 64 * 1024
    let deadline = NIODeadline.now() + TimeAmount(timeout)
    let head: ByteBuffer
    do {
      let response = try await fetch(
        .GET, url: url(requestPath: requestPath, query: nil), headers: ["Accept-Encoding": "identity"], by: deadline)
      guard response.status == .ok else { return false }
      head = try await within(deadline) {
        var head = ByteBuffer()
        for try await chunk in response.body {
          head.writeImmutableBuffer(chunk)
          if head.readableBytes >= limit { break }
        }
        return head
      }
    } catch {
      return false
    }
    let isMaster = RequestTarget.isMasterPlaylist(text: String(buffer: head))
    masterPlaylists.withLock { $0[requestPath] = isMaster }
    return isMaster
  }

  /// The error as the log and the 502 body name it.
  func describe(_ error: any Error) -> String {
    if let error = error as? HTTPClientError {
      return error == .deadlineExceeded ? OriginFailure.tooSlow(timeout: timeout).description : "\(error)"
    }
    if let error = error as? HTTPParserError, error == .invalidEOFState {
      return "the connection closed before the end of the response"
    }
    if let error = error as? IOError { return "connection error: \(SystemError(code: error.errnoCode).reason)" }
    return String(describing: error)
  }
}
