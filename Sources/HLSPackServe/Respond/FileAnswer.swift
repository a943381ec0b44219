import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A file's response: validators, a conditional or range answer, the key
/// faults, and a body streamed from disk through the plan's shaping.
struct FileAnswer {
  let responder: FixtureResponder
  let request: Request
  let realPath: String
  var exchange: FixtureResponder.Exchange
  let context: ServeRequestContext

  func response() throws -> Response {
    guard let validators = FileValidators(realPath: realPath) else {
      return responder.finish(FixtureResponder.plain(.notFound, "not found\n"), exchange)
    }
    var headers = HTTPFields()
    headers[.contentType] = MediaType.of(relativePath: exchange.target?.relativePath ?? "")
    headers[.eTag] = validators.etag
    headers[.lastModified] = validators.lastModified
    headers[.acceptRanges] = "bytes"
    let encoding = PlaylistGzip.choose(
      enabled: responder.gzipPlaylists, target: exchange.target, headers: request.headers)
    if encoding != .notApplicable { headers[.vary] = "Accept-Encoding" }
    let zipped = encoding == .gzip ? gzippedPlaylist(size: validators.size) : nil
    if zipped != nil { headers[.eTag] = PlaylistGzip.etag(validators.etag) }
    if let tags = request.headers[.ifNoneMatch], Self.matches(tags, etag: headers[.eTag] ?? validators.etag) {
      return responder.finish(Response(status: .notModified, headers: headers), exchange)
    }
    if let fault = exchange.plan.key {
      let key = try [UInt8](Data(contentsOf: URL(fileURLWithPath: realPath)).prefix(64))
      return responder.corruptedKey(
        fault, key: key, headers: headers, request: request, exchange: exchange, context: context)
    }
    if let zipped {
      return responder.gzipped(zipped, headers: headers, request: request, exchange: exchange, context: context)
    }
    let size = validators.size
    var status = HTTPResponse.Status.ok
    var range = 0...max(0, size - 1)
    switch RangeRequest(
      header: request.headers[.range], ifRange: request.headers[.ifRange], size: size, validators: validators)
    {
    case .whole: break
    case .unsatisfiable:
      headers[.contentRange] = "bytes */\(size)"
      headers[.contentType] = "text/plain; charset=utf-8"
      return responder.finish(
        Response(status: .rangeNotSatisfiable, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "\n"))),
        exchange)
    case .partial(let part):
      status = .partialContent
      range = part
      headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound)/\(size)"
    }
    let length = size == 0 ? 0 : range.count
    headers[.contentLength] = String(length)
    if request.method == .head || length == 0 {
      return responder.finish(Response(status: status, headers: headers), exchange)
    }
    return responder.streamed(
      status: status, headers: headers, source: .file(realPath: realPath, range: range), exchange: exchange,
      context: context)
  }

  /// The playlist compressed, or nil (too large to hold in memory, unreadable) to send it as it is.
  private func gzippedPlaylist(size: Int) -> ByteBuffer? {
    guard size <= PlaylistGzip.largestPlaylist, let data = FileManager.default.contents(atPath: realPath) else {
      return nil
    }
    return PlaylistGzip.compress(ByteBuffer(bytes: data))
  }

  /// If-None-Match (RFC 9110 section 13.1.2): `*` or a list holding the ETag.
  private static func matches(_ header: String, etag: String) -> Bool {
    header.trimmingSpaces == "*"
      || header.split(separator: ",").contains { tag in
        let tag = tag.trimmingSpaces
        return tag == etag || tag == "W/" + etag
      }
  }
}
