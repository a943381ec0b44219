import AsyncHTTPClient
import Foundation
import HLSPackCore
import NIOCore
import NIOHTTP1

import NIOSSL

/// One HTTP request whose response body is taken piece by piece, on the
/// caller's thread, as it arrives. The caller sleeps on a condition while it
/// waits (no polling), and never past the request's deadline; the server is
/// held back (TCP flow control) once `bufferLimit` bytes wait untaken.
final class HTTPTransfer: HTTPClientResponseDelegate, @unchecked Sendable {
  typealias Response = Void

  // Everything below is guarded by `condition`: the event loop writes, the caller's thread reads.
  private let condition = NSCondition()
  private var head: HTTPResponseHead?
  private var pieces: [ByteBuffer] = []
  private var buffered = 0
  private var resume: EventLoopPromise<Void>?
  private var finished = false
  private var failure: String?
  /// The connection closed before any response: a pooled connection the
  /// server had closed, which a new connection may not repeat.
  private var closedBeforeResponse = false

  private var task: HTTPClient.Task<Void>?
  private let deadline: (date: Date, reason: String)

  static let bufferLimit = 4 << 20

  /// Starts `method` on `url`; `range` asks for those bytes only.
  init(_ session: HTTPSession, url: URL, method: HTTPMethod = .GET, range: Range<Int>? = nil) throws(SourceFailure) {
    deadline = session.deadline()
    var headers = HTTPHeaders()
    if let range, !range.isEmpty {
      headers.add(name: "Range", value: "bytes=\(range.lowerBound)-\(range.upperBound - 1)")
    }
    if let user = url.user {
      let credentials = Data("\(user):\(url.password ?? "")".utf8).base64EncodedString()
      headers.add(name: "Authorization", value: "Basic \(credentials)")
    }
    let request: HTTPClient.Request
    do {
      request = try HTTPClient.Request(url: url.absoluteString, method: method, headers: headers)
    } catch {
      throw .unreadable("(not a URL the client can ask for: \(error))")
    }
    // The deadline is kept here, not given to the client: the caller's wait
    // ends at it, and says which deadline it was.
    task = session.client.execute(request: request, delegate: self)
  }

  deinit { task?.cancel() }

  /// Stops the transfer; pieces not taken are dropped.
  func cancel() {
    task?.cancel()
    condition.lock()
    let waiting = resume
    resume = nil
    condition.unlock()
    waiting?.succeed(())
  }

  /// Waits, without spinning, until `ready` holds or the deadline passes.
  private func wait(until ready: () -> Bool) throws(SourceFailure) {
    while !ready() {
      guard condition.wait(until: deadline.date) || ready() else {
        condition.unlock()
        cancel()
        condition.lock()
        throw .unreadable(deadline.reason)
      }
    }
  }

  /// The response's status and headers, once they have arrived; nil when the
  /// connection closed before them, so that the request may be sent again.
  func waitForResponse() throws(SourceFailure) -> HTTPResponseHead? {
    condition.lock()
    defer { condition.unlock() }
    try wait { head != nil || finished }
    if head == nil, closedBeforeResponse { return nil }
    guard let head else { throw .unreadable("(\(failure ?? "no response"))") }
    return head
  }

  /// The next piece of the body; nil at its end.
  func next() throws(SourceFailure) -> ByteBuffer? {
    condition.lock()
    defer { condition.unlock() }
    try wait { !pieces.isEmpty || finished }
    if !pieces.isEmpty {
      let piece = pieces.removeFirst()
      buffered -= piece.readableBytes
      if buffered <= Self.bufferLimit / 2, let waiting = resume {
        resume = nil
        waiting.succeed(())
      }
      return piece
    }
    if let failure { throw .unreadable("(\(failure))") }
    return nil
  }

  func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
    condition.lock()
    self.head = head
    condition.broadcast()
    condition.unlock()
    return task.eventLoop.makeSucceededVoidFuture()
  }

  func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
    condition.lock()
    defer { condition.unlock() }
    pieces.append(buffer)
    buffered += buffer.readableBytes
    condition.broadcast()
    guard buffered > Self.bufferLimit else { return task.eventLoop.makeSucceededVoidFuture() }
    let promise = task.eventLoop.makePromise(of: Void.self)
    resume = promise
    return promise.futureResult
  }

  func didReceiveError(task: HTTPClient.Task<Void>, _ error: Error) {
    condition.lock()
    if failure == nil { failure = Self.describe(error) }
    if head == nil {
      closedBeforeResponse =
        error as? ChannelError == .ioOnClosedChannel || error as? HTTPClientError == .remoteConnectionClosed
    }
    finished = true
    condition.broadcast()
    condition.unlock()
  }

  func didFinishRequest(task: HTTPClient.Task<Void>) throws {
    condition.lock()
    finished = true
    condition.broadcast()
    condition.unlock()
  }

  static func describe(_ error: Error) -> String {
    let text = "\(error)"
    if text.contains("CERTIFICATE_VERIFY_FAILED") {
      return "TLS: the server's certificate is not trusted; --cacert FILE adds the CA that signed it"
    }
    if error is NIOSSLError { return "TLS: \(text.prefix { $0 != "(" })" }
    if let error = error as? HTTPClientError {
      switch error {
      case .readTimeout: return "no byte within the read timeout"
      case .remoteConnectionClosed: return "the server closed the connection"
      default: return "\(error)"
      }
    }
    return "\(error)"
  }
}
