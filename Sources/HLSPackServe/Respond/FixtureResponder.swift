import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Answers every request: the control endpoints under `/_hlspack/`, CORS
/// preflights, and files of the served folder or the origin through the scenario's rules.
struct FixtureResponder: HTTPResponder {
  typealias Context = ServeRequestContext

  /// Where the files come from.
  enum Content: Sendable {
    case folder(ServedFolder)
    /// Proxy mode: the same paths, fetched from an origin.
    case upstream(Upstream)
  }

  /// A request's file, once found or named.
  private enum Located {
    case file(realPath: String)
    case upstream(Upstream)
  }

  let content: Content
  let scenario: ScenarioState
  let stats: ServeStats
  let log: RequestLog
  let pacers: Pacers
  /// Bounds the body bytes in memory over all connections.
  let budget: BodyBudget
  /// Paths the playlists name as keys, whatever their names.
  let keyURIs = KeyURIs()
  /// `--gzip`: playlists compressed for clients that accept gzip.
  var gzipPlaylists = false
  /// `http` or `https`, for the log: both listeners share everything else.
  var scheme = "http"

  /// One request on its way through: what the log needs, gathered as the answer is chosen.
  struct Exchange: Sendable {
    var start = Date()
    var clock = ContinuousClock.now
    var method: String
    var path: String
    var query: String?
    var headers: [(name: String, value: String)]
    var target: RequestTarget?
    var range: String?
    var plan = ResponsePlan()
    var faults: [String] = []
    /// Why the origin gave no answer, in proxy mode.
    var upstreamError: String?

    init(_ request: Request) {
      method = request.method.rawValue
      let full = request.head.path ?? "/"
      if let mark = full.firstIndex(of: "?") {
        path = String(full[..<mark])
        query = String(full[full.index(after: mark)...])
      } else {
        path = full
      }
      headers = request.headers.map { (name: $0.name.rawName, value: $0.value) }
      range = request.headers[.range]
    }
  }

  func respond(to request: Request, context: ServeRequestContext) async throws -> Response {
    var exchange = Exchange(request)
    if exchange.path.hasPrefix(ControlEndpoints.prefix) {
      exchange.target = RequestTarget(control: exchange.path)
      var request = request
      let response = try await ControlEndpoints(scenario: scenario, stats: stats, budget: budget).respond(
        to: &request, path: exchange.path)
      return finish(response, exchange)
    }
    let located: Located
    switch content {
    case .folder(let folder):
      switch folder.lookup(requestPath: exchange.path) {
      case .forbidden:
        return finish(Self.plain(.forbidden, "outside the served folder\n"), exchange)
      case .notFound:
        return finish(Self.plain(.notFound, "not found\n"), exchange)
      case .file(let realPath, let relativePath):
        let target = classified(RequestTarget(relativePath: relativePath, realPath: realPath), in: folder)
        if target.kind == .media || target.kind == .master {
          keyURIs.learn(playlistFile: realPath, at: relativePath)
        }
        exchange.target = target
        located = .file(realPath: realPath)
      }
    case .upstream(let upstream):
      guard let relativePath = ServedFolder.relativePath(requestPath: exchange.path) else {
        return finish(Self.plain(.forbidden, "outside the origin's path\n"), exchange)
      }
      guard !relativePath.isEmpty else { return finish(Self.plain(.notFound, "not found\n"), exchange) }
      let isMaster =
        RequestTarget.isPlaylist(relativePath: relativePath)
        ? await upstream.isMasterPlaylist(requestPath: exchange.path) : false
      exchange.target = classified(RequestTarget(relativePath: relativePath) { isMaster }, in: nil)
      located = .upstream(upstream)
    }
    if request.method == .options { return finish(CORS.preflight(request), exchange) }
    guard request.method == .get || request.method == .head else {
      var response = Self.plain(.methodNotAllowed, "only GET, HEAD and OPTIONS\n")
      response.headers[.allow] = "GET, HEAD, OPTIONS"
      return finish(response, exchange)
    }
    if let target = exchange.target { exchange.plan = scenario.plan(for: target, method: exchange.method) }
    return try await answer(request, located: located, exchange: exchange, context: context)
  }

  /// A file whose name leaves its kind open is a key when a playlist names it as one.
  private func classified(_ target: RequestTarget, in folder: ServedFolder?) -> RequestTarget {
    guard target.kind == .other, keyURIs.contains(target.relativePath, scanning: folder) else { return target }
    var target = target
    target.kind = .key
    return target
  }

  /// Applies the plan's faults that come before the body, then serves the file.
  private func answer(
    _ request: Request, located: Located, exchange: Exchange, context: ServeRequestContext
  ) async throws -> Response {
    var exchange = exchange
    let plan = exchange.plan
    if plan.delayMs > 0 {
      exchange.faults.append("delay")
      try await Task.sleep(for: .milliseconds(plan.delayMs))
    }
    if plan.closeConnection {
      exchange.faults.append("close_connection")
      record(exchange, status: nil, bytes: 0)
      try await context.channel.close()
      throw BodyTruncated()
    }
    switch RequirementCheck.check(plan.requirements, headers: request.headers, query: exchange.query) {
    case .passed: break
    case .missing(let what):
      exchange.faults.append("unauthorized")
      var response = Self.plain(.unauthorized, "missing \(what)\n")
      response.headers[.wwwAuthenticate] = "Bearer"
      return finish(response, exchange)
    case .wrong(let what):
      exchange.faults.append("forbidden")
      return finish(Self.plain(.forbidden, "wrong \(what)\n"), exchange)
    }
    if let status = plan.status {
      exchange.faults.append("status")
      return finish(Self.scenarioStatus(status), exchange)
    }
    switch located {
    case .file(let realPath):
      return try FileAnswer(
        responder: self, request: request, realPath: realPath, exchange: exchange, context: context
      ).response()
    case .upstream(let upstream):
      return try await ProxyAnswer(
        responder: self, upstream: upstream, request: request, exchange: exchange, context: context
      ).response()
    }
  }

  /// Adds CORS and the plan's headers, records the exchange, and returns the response.
  func finish(_ response: Response, _ exchange: Exchange) -> Response {
    var response = response
    decorate(&response, exchange)
    record(exchange, status: Int(response.status.code), bytes: response.body.contentLength ?? 0)
    return response
  }

  func decorate(_ response: inout Response, _ exchange: Exchange) {
    CORS.addHeaders(to: &response.headers)
    for header in exchange.plan.headers {
      if let name = HTTPField.Name(header.name) { response.headers[name] = header.value }
    }
  }

  func record(_ exchange: Exchange, status: Int?, bytes: Int) {
    let target = exchange.target
    stats.record(
      path: target == nil ? nil : exchange.path, kind: target?.kind ?? .other, status: status, bytes: bytes,
      faults: exchange.faults)
    guard log.isEnabled else { return }
    log.write(
      RequestLogEntry(
        start: exchange.start, scheme: scheme, method: exchange.method, path: exchange.path, query: exchange.query,
        target: target,
        range: exchange.range, status: status, bytes: bytes,
        durationMs: ScenarioState.seconds(.now - exchange.clock) * 1000, headers: exchange.headers,
        rules: exchange.plan.ruleNames, faults: exchange.faults, upstreamError: exchange.upstreamError))
  }

  /// A status a rule asks for: a short text, or nothing for the statuses that never carry a body.
  static func scenarioStatus(_ code: Int) -> Response {
    guard !ScenarioLimits.bodilessStatuses.contains(code) else { return Response(status: .init(code: code)) }
    return plain(.init(code: code), "status \(code) from the scenario\n")
  }

  static func plain(_ status: HTTPResponse.Status, _ text: String) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = "text/plain; charset=utf-8"
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
  }
}

extension RequestTarget {
  init(control path: String) {
    self.init(relativePath: String(path.dropFirst()), kind: .control, rendition: nil, segmentIndex: nil)
  }
}
