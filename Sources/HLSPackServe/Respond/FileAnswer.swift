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
    if let tags = request.headers[.ifNoneMatch], Self.matches(tags, etag: validators.etag) {
      return responder.finish(Response(status: .notModified, headers: headers), exchange)
    }
    if let fault = exchange.plan.key {
      return try keyResponse(fault, headers: headers)
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
    return streamed(status: status, headers: headers, source: .file(range))
  }

  /// A key answered with bytes a client must reject.
  private func keyResponse(_ fault: KeyFault, headers: HTTPFields) throws -> Response {
    var exchange = exchange
    exchange.faults.append("key_\(fault.rawValue)")
    let key = try [UInt8](Data(contentsOf: URL(fileURLWithPath: realPath)).prefix(64))
    let bytes: [UInt8]
    switch fault {
    case .wrong: bytes = key.map { ~$0 }
    case .short: bytes = Array(key.prefix(15))
    case .long: bytes = key + [0]
    }
    var headers = headers
    headers[.contentLength] = String(bytes.count)
    headers[.eTag] = nil
    if request.method == .head {
      return responder.finish(Response(status: .ok, headers: headers), exchange)
    }
    var answer = self
    answer.exchange = exchange
    return answer.streamed(status: .ok, headers: headers, source: .bytes(ByteBuffer(bytes: bytes)))
  }

  enum Source: Sendable {
    case file(ClosedRange<Int>)
    case bytes(ByteBuffer)
  }

  /// Streams the body through the plan's shaping and records the exchange when it ends, however it ends.
  private func streamed(status: HTTPResponse.Status, headers: HTTPFields, source: Source) -> Response {
    var exchange = exchange
    let plan = exchange.plan
    var shape = BodyShape(stall: plan.stall, truncateBytes: plan.truncateBytes)
    if let throughput = plan.throughput {
      let key: String
      if throughput.per == .rendition {
        key = "rendition:\(exchange.target?.rendition ?? "")"
      } else {
        key = context.connectionKey
        let pacers = responder.pacers
        context.channel.closeFuture.whenComplete { _ in pacers.forget(key: key) }
      }
      shape.pace = .init(
        throughput: throughput, key: key, origin: responder.scenario.loadedAt, pacers: responder.pacers)
      exchange.faults.append("throughput")
    }
    if plan.stall != nil { exchange.faults.append("stall") }
    if plan.truncateBytes != nil { exchange.faults.append("truncate") }
    let length = headers[.contentLength].flatMap { Int($0) }
    let (responder, realPath, context, finished, bodyShape) = (responder, realPath, context, exchange, shape)
    var response = Response(status: status, headers: headers)
    response.body = ResponseBody(contentLength: length) { writer in
      let sent = SentBytes()
      let shaping = ShapingWriter(inner: writer, shape: bodyShape, sent: sent)
      do {
        switch source {
        case .bytes(let buffer):
          try await ResponseBody(byteBuffer: buffer).write(shaping)
        case .file(let range):
          try await responder.fileIO.loadFile(path: realPath, range: range, context: context, chunkLength: 64 * 1024)
            .write(shaping)
        }
        responder.record(finished, status: Int(status.code), bytes: sent.value)
      } catch {
        responder.record(finished, status: Int(status.code), bytes: sent.value)
        throw error
      }
    }
    responder.decorate(&response, exchange)
    return response
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
