import AsyncHTTPClient
import HTTPTypes
import Hummingbird
import NIOCore
import _NIOFileSystem

/// Where a response body comes from: bytes of a served file, bytes made here,
/// or the origin's body in proxy mode, read as the client takes it.
enum BodySource: Sendable {
  case file(realPath: String, range: ClosedRange<Int>)
  case bytes(ByteBuffer)
  case upstream(HTTPClientResponse.Body)
}

extension FixtureResponder {
  /// Streams a body through the plan's shaping and records the exchange when it ends, however it ends.
  func streamed(
    status: HTTPResponse.Status, headers: HTTPFields, source: BodySource, exchange: Exchange,
    context: ServeRequestContext
  ) -> Response {
    var exchange = exchange
    let plan = exchange.plan
    var shape = BodyShape(stall: plan.stall, truncateBytes: plan.truncateBytes)
    if let throughput = plan.throughput {
      let key: String
      if throughput.per == .rendition {
        key = "rendition:\(exchange.target?.rendition ?? "")"
      } else {
        key = context.connectionKey
        let pacers = pacers
        context.channel.closeFuture.whenComplete { _ in pacers.forget(key: key) }
      }
      shape.pace = .init(throughput: throughput, key: key, origin: scenario.loadedAt, pacers: pacers)
      exchange.faults.append("throughput")
    }
    if plan.stall != nil { exchange.faults.append("stall") }
    if plan.truncateBytes != nil { exchange.faults.append("truncate") }
    let length = headers[.contentLength].flatMap { Int($0) }
    let (finished, bodyShape) = (exchange, shape)
    var response = Response(status: status, headers: headers)
    let channel = context.channel
    response.body = ResponseBody(contentLength: length) { writer in
      let sent = SentBytes()
      var shaping = ShapingWriter(inner: writer, shape: bodyShape, sent: sent)
      do {
        switch source {
        case .bytes(let buffer):
          try await ResponseBody(byteBuffer: buffer).write(shaping)
        case .file(let realPath, let range):
          try await Self.writeFile(realPath, range: range, to: &shaping, through: await BudgetedSender(on: channel))
          try await shaping.finish(nil)
        case .upstream(let body):
          let sender = await BudgetedSender(on: channel)
          for try await chunk in body {
            try await sender.send(length: chunk.readableBytes, to: &shaping) { chunk }
          }
          try await shaping.finish(nil)
        }
        record(finished, status: Int(status.code), bytes: sent.value)
      } catch {
        record(finished, status: Int(status.code), bytes: sent.value)
        throw error
      }
    }
    decorate(&response, exchange)
    return response
  }

  /// Reads a file's range a chunk at a time, as the budget gives room (not
  /// Hummingbird's `FileIO`, which reads up to eight chunks ahead of the
  /// connection). A file that shrank since its length was sent ends the body
  /// early, which closes the connection.
  static func writeFile(
    _ realPath: String, range: ClosedRange<Int>, to writer: inout ShapingWriter, through sender: BudgetedSender
  ) async throws {
    let chunkLength = Int64(ServerChannels.bodyChunk)
    try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(realPath)) { handle in
      var offset = Int64(range.lowerBound)
      let end = Int64(range.upperBound) + 1
      while offset < end {
        let length = min(chunkLength, end - offset)
        let start = offset
        let read = try await sender.send(length: Int(length), to: &writer) {
          let chunk = try await handle.readChunk(fromAbsoluteOffset: start, length: .bytes(length))
          guard chunk.readableBytes > 0 else { throw BodyTruncated() }
          return chunk
        }
        offset += Int64(read)
      }
    }
  }

  /// A key answered with bytes a client must reject, made from the real key's first bytes.
  func corruptedKey(
    _ fault: KeyFault, key: [UInt8], headers: HTTPFields, request: Request, exchange: Exchange,
    context: ServeRequestContext
  ) -> Response {
    var exchange = exchange
    exchange.faults.append("key_\(fault.rawValue)")
    let key = Array(key.prefix(64))
    let bytes: [UInt8]
    switch fault {
    case .wrong: bytes = key.map { ~$0 }
    case .short: bytes = Array(key.prefix(15))
    case .long: bytes = key + [0]
    }
    var headers = headers
    headers[.contentLength] = String(bytes.count)
    headers[.eTag] = nil
    headers[.contentRange] = nil
    if request.method == .head {
      return finish(Response(status: .ok, headers: headers), exchange)
    }
    return streamed(
      status: .ok, headers: headers, source: .bytes(ByteBuffer(bytes: bytes)), exchange: exchange, context: context)
  }
}

extension FixtureResponder {
  /// A playlist sent gzip-compressed (`--gzip`), through the plan's shaping like any body.
  func gzipped(
    _ body: ByteBuffer, headers: HTTPFields, request: Request, exchange: Exchange, context: ServeRequestContext
  ) -> Response {
    var headers = headers
    headers[.contentEncoding] = "gzip"
    headers[.contentLength] = String(body.readableBytes)
    headers[.contentRange] = nil
    if request.method == .head {
      return finish(Response(status: .ok, headers: headers), exchange)
    }
    return streamed(status: .ok, headers: headers, source: .bytes(body), exchange: exchange, context: context)
  }
}
