import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1

/// A response in proxy mode: the origin's status, validators and body, passed
/// through the same faults and shaping as a served file's. The conditional and
/// range headers go to the origin, which answers them.
struct ProxyAnswer {
  let responder: FixtureResponder
  let upstream: Upstream
  let request: Request
  var exchange: FixtureResponder.Exchange
  let context: ServeRequestContext

  /// Request headers passed to the origin: the range and conditional ones, and
  /// the credentials an origin of its own may ask for.
  static let forwardedRequestHeaders: [HTTPField.Name] = [
    .range, .ifRange, .ifNoneMatch, .ifModifiedSince, .authorization, .cookie, .userAgent, .accept,
  ]
  /// Response headers passed to the client.
  static let passedResponseHeaders: [String] = [
    "Content-Type", "Content-Length", "Content-Range", "Content-Encoding", "ETag", "Last-Modified",
    "Accept-Ranges", "Cache-Control", "Expires", "Location", "WWW-Authenticate",
  ]

  /// The origin's answer, or 502 Bad Gateway when there is none to pass on:
  /// every failure before the response head leaves is the origin's.
  func response() async throws -> Response {
    let url = upstream.url(requestPath: exchange.path, query: exchange.query)
    do {
      return try await passOn(url: url)
    } catch  where !(error is CancellationError) && !Task.isCancelled {
      return failed(url: url, error: error)
    }
  }

  private func passOn(url: String) async throws -> Response {
    let encoding = PlaylistGzip.choose(
      enabled: responder.gzipPlaylists, target: exchange.target, headers: request.headers)
    let keyFault = exchange.plan.key
    // A corrupted key is made from the whole key, so its request carries no range or condition;
    // HEAD of a gzipped playlist needs the body too, for the compressed length.
    let method: HTTPMethod = request.method == .head && keyFault == nil && encoding != .gzip ? .HEAD : .GET
    let deadline = NIODeadline.now() + TimeAmount(upstream.timeout)
    let origin = try await upstream.fetch(
      method, url: url, headers: forwardedHeaders(encoding: encoding, bare: keyFault != nil), by: deadline)
    var headers = HTTPFields()
    for name in Self.passedResponseHeaders {
      if let value = origin.headers.first(name: name), let field = HTTPField.Name(name) { headers[field] = value }
    }
    if headers[.contentType] == nil {
      headers[.contentType] = MediaType.of(relativePath: exchange.target?.relativePath ?? "")
    }
    if encoding != .notApplicable { headers[.vary] = "Accept-Encoding" }
    let status = HTTPResponse.Status(code: Int(origin.status.code))
    if let keyFault, status == .ok {
      let key = try await upstream.collect(origin.body, upTo: 64 * 1024, by: deadline)
      return responder.corruptedKey(
        keyFault, key: Array(key.readableBytesView), headers: headers, request: request, exchange: exchange,
        context: context)
    }
    let isPlaylist = exchange.target.map { $0.kind == .media || $0.kind == .master } ?? false
    if status == .ok, headers[.contentEncoding] == nil, encoding == .gzip || (isPlaylist && request.method == .get) {
      let playlist = try await upstream.collect(origin.body, upTo: PlaylistGzip.largestPlaylist, by: deadline)
      if let target = exchange.target {
        responder.keyURIs.learn(playlist: String(buffer: playlist), at: target.relativePath)
      }
      if encoding == .gzip, let zipped = PlaylistGzip.compress(playlist) {
        headers[.eTag] = headers[.eTag].map(PlaylistGzip.etag)
        return responder.gzipped(zipped, headers: headers, request: request, exchange: exchange, context: context)
      }
      headers[.contentLength] = String(playlist.readableBytes)
      return responder.streamed(
        status: status, headers: headers, source: .bytes(playlist), exchange: exchange, context: context)
    }
    if encoding == .gzip, status == .notModified {
      headers[.eTag] = headers[.eTag].map(PlaylistGzip.etag)
    }
    if request.method == .head || status == .notModified || status == .noContent || status.code < 200 {
      return responder.finish(Response(status: status, headers: headers), exchange)
    }
    return responder.streamed(
      status: status, headers: headers, source: .upstream(origin.body), exchange: exchange, context: context)
  }

  private func forwardedHeaders(encoding: PlaylistGzip.Choice, bare: Bool) -> HTTPHeaders {
    var headers = HTTPHeaders()
    // The bytes pass through as the origin stores them: ranges stay exact, and --gzip compresses here.
    headers.add(name: "Accept-Encoding", value: "identity")
    for name in Self.forwardedRequestHeaders {
      if bare, name == .range || name == .ifRange || name == .ifNoneMatch || name == .ifModifiedSince { continue }
      for value in request.headers[values: name] {
        let value = name == .ifNoneMatch && encoding == .gzip ? PlaylistGzip.identityTags(value) : value
        headers.add(name: name.rawName, value: value)
      }
    }
    return headers
  }

  /// 502 Bad Gateway (RFC 9110 section 15.6.3), with the origin's error in the body and the log.
  private func failed(url: String, error: any Error) -> Response {
    var exchange = exchange
    let reason = upstream.describe(error)
    exchange.upstreamError = "\(url): \(reason)"
    return responder.finish(
      FixtureResponder.plain(.badGateway, "no usable answer from the origin: \(url): \(reason)\n"), exchange)
  }
}
