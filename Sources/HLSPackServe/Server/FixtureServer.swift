import Foundation
import HLSPackCore
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// `hlspack serve`: Hummingbird applications over one folder or origin, HTTP and
/// optionally HTTPS on a second port, sharing the scenario, the stats and the
/// log; stopped gracefully by SIGINT or SIGTERM (in-flight responses get 5 s).
public struct FixtureServer: Sendable {
  let options: ServeOptions
  let responder: FixtureResponder
  let tls: TLSSetup?

  /// Checks the folder or origin URL, the scenario, the log and the certificate before anything listens.
  public init(options: ServeOptions) throws {
    self.options = options
    let folder: ServedFolder?
    switch (options.folder, options.upstream) {
    case (let path?, nil): folder = try ServedFolder(path: path)
    case (nil, _?): folder = nil
    default: throw ServeError.contentSource
    }
    let scenario = try options.scenario.map { try Scenario.read(path: $0) } ?? .empty
    let log = try RequestLog(destination: options.log, showsSecrets: options.logSecrets)
    tls = try options.tls.map { try TLSSetup($0) }
    // The origin's client is made last: once made, it must be shut down (see `run`).
    let content: FixtureResponder.Content
    if let folder {
      content = .folder(folder)
    } else {
      content = .upstream(try Upstream(url: options.upstream ?? "", timeout: options.upstreamTimeout))
    }
    responder = FixtureResponder(
      content: content, scenario: ScenarioState(scenario), stats: ServeStats(), log: log, pacers: Pacers(),
      budget: BodyBudget(), gzipPlaylists: options.gzipPlaylists)
  }

  /// Serves until SIGINT or SIGTERM. Each listener prints one JSON line on
  /// standard output with its scheme and bound port, for scripts that ask for port 0.
  public func run() async throws {
    var logger = Logger(label: "hlspack.serve")
    logger.logLevel = .warning
    let (limits, connections) = (options.limits, ConnectionCount(limit: options.limits.maxConnections))
    var services: [any Service] = [
      Application(
        responder: responder,
        server: ServerChannels.http(budget: responder.budget, limits: limits, connections: connections),
        configuration: .init(address: .hostname(options.host, port: options.port), serverName: "hlspack"),
        onServerRunning: announcer(scheme: "http", authority: nil), logger: logger)
    ]
    if let tls {
      var secure = responder
      secure.scheme = "https"
      services.append(
        Application(
          responder: secure,
          server: try ServerChannels.https(
            budget: responder.budget, limits: limits, connections: connections, tls: tls.configuration),
          configuration: .init(address: .hostname(options.host, port: options.tlsPort), serverName: "hlspack"),
          onServerRunning: announcer(scheme: "https", authority: tls.authority), logger: logger))
      if let authority = tls.authority { Self.explainTrust(authority: authority) }
    }
    var configuration = ServiceGroupConfiguration(
      services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    configuration.maximumGracefulShutdownDuration = .seconds(5)
    let ports = [options.port] + (tls == nil ? [] : [options.tlsPort])
    var failure: (any Error)?
    do {
      try await ServiceGroup(configuration: configuration).run()
    } catch {
      failure = error
    }
    if case .upstream(let upstream) = responder.content { await upstream.shutdown() }
    guard let failure else { return }
    if let error = failure as? IOError {
      if error.errnoCode == EADDRINUSE { throw ServeError.addressInUse(host: options.host, ports: ports) }
      throw ServeError.cannotListen(host: options.host, ports: ports, reason: "\(error)")
    }
    throw failure
  }

  private func announcer(scheme: String, authority: String?) -> @Sendable (any Channel) async -> Void {
    let host = options.host
    let source: (key: String, value: String) =
      switch responder.content {
      case .folder(let folder): ("root", folder.realPath)
      case .upstream(let upstream): ("upstream", upstream.base)
      }
    return { channel in
      let port = channel.localAddress?.port ?? 0
      let url = "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)/"
      var announcement: [String: Any] = [
        "event": "listening", "scheme": scheme, "host": host, "port": port, "url": url, source.key: source.value,
      ]
      if let authority { announcement["ca"] = authority }
      guard
        var line = try? JSONSerialization.data(
          withJSONObject: announcement, options: [.sortedKeys, .withoutEscapingSlashes])
      else { return }
      line.append(0x0A)
      try? FileHandle.standardOutput.write(contentsOf: line)
    }
  }

  /// How to make clients trust the local authority, on standard error (standard output is for scripts).
  private static func explainTrust(authority: String) {
    let text = """
      hlspack serve: HTTPS certificates come from the local authority \(authority)
        curl --cacert \(authority) …   ffmpeg -tls_verify 1 -ca_file \(authority) -i https://… …
        iOS simulator:    xcrun simctl keychain booted add-root-cert \(authority)
        Android emulator: adb push \(authority) /sdcard/Download/hlspack-ca.pem, then Settings › Security ›
                          Install a certificate › CA certificate (apps trust user CAs only if their
                          network_security_config says so)

      """
    StandardError.write(text)
  }
}
