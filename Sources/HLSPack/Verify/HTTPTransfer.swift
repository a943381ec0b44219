import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One HTTP request whose response body is taken piece by piece, on the
/// caller's thread, as it arrives. FoundationNetworking on Linux cannot
/// pause a transfer, so pieces a slow caller has not taken yet wait in
/// memory; verify's checks run faster than a network delivers.
final class HTTPTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // Everything below is guarded by `condition`: the delegate's queue writes, the caller's thread reads.
  private let condition = NSCondition()
  private var response: HTTPURLResponse?
  private var pieces: [Data] = []
  private var finished = false
  private var failure: String?
  private var refusedRedirect: URL?

  private let origin: URL
  private var task: URLSessionDataTask?

  static let timeout: TimeInterval = 60

  /// Starts `method` on `url`; `range` asks for those bytes only.
  init(_ url: URL, method: String = "GET", range: Range<Int>? = nil) {
    origin = url
    super.init()
    var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: Self.timeout)
    request.httpMethod = method
    if let range, !range.isEmpty {
      request.setValue("bytes=\(range.lowerBound)-\(range.upperBound - 1)", forHTTPHeaderField: "Range")
    }
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    let session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
    let task = session.dataTask(with: request)
    self.task = task
    task.resume()
    // The session lets its delegate go once the task ends.
    session.finishTasksAndInvalidate()
  }

  /// Stops the transfer; pieces not taken are dropped.
  func cancel() {
    task?.cancel()
  }

  /// The response's status and headers, once they have arrived.
  func waitForResponse() throws(SourceFailure) -> HTTPURLResponse {
    condition.lock()
    defer { condition.unlock() }
    while response == nil, !finished { condition.wait() }
    if let refusedRedirect {
      throw .outside("to \(refusedRedirect.absoluteString), another host (a redirect not followed)")
    }
    guard let response else { throw .unreadable("(\(failure ?? "no response"))") }
    return response
  }

  /// The next piece of the body; nil at its end.
  func next() throws(SourceFailure) -> Data? {
    condition.lock()
    defer { condition.unlock() }
    while pieces.isEmpty, !finished { condition.wait() }
    if !pieces.isEmpty { return pieces.removeFirst() }
    if let failure { throw .unreadable("(\(failure))") }
    return nil
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    condition.lock()
    self.response = response as? HTTPURLResponse
    if self.response == nil { failure = "not an HTTP response" }
    condition.broadcast()
    condition.unlock()
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    condition.lock()
    pieces.append(data)
    condition.broadcast()
    condition.unlock()
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    condition.lock()
    if let error, failure == nil { failure = error.localizedDescription }
    if response == nil, let answered = task.response as? HTTPURLResponse { response = answered }
    finished = true
    condition.broadcast()
    condition.unlock()
  }

  /// A redirect is followed on the same scheme, host and port only: another
  /// host is another publisher's server, which the package does not name.
  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
  ) {
    guard let target = request.url, Self.sameOrigin(target, origin) else {
      condition.lock()
      refusedRedirect = request.url ?? origin
      condition.unlock()
      completionHandler(nil)
      return
    }
    completionHandler(request)
  }

  static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
    a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
      && a.port == b.port
  }
}
