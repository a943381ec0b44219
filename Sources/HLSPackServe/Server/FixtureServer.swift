import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// `hlspack serve`: a Hummingbird application over one folder, stopped
/// gracefully by SIGINT or SIGTERM (in-flight responses get a few seconds).
public struct FixtureServer: Sendable {
  let options: ServeOptions
  let responder: FixtureResponder

  /// Checks the folder, the scenario and the log before anything listens.
  public init(options: ServeOptions) throws {
    self.options = options
    let folder = try ServedFolder(path: options.folder)
    var scenario = Scenario.empty
    if let path = options.scenario {
      let data: Data
      do {
        data = try Data(contentsOf: URL(fileURLWithPath: path))
      } catch {
        throw ServeError.scenarioUnreadable(path: path, reason: error.localizedDescription)
      }
      scenario = try Scenario.load(data, source: path)
    }
    responder = FixtureResponder(
      folder: folder, scenario: ScenarioState(scenario), stats: ServeStats(),
      log: try RequestLog(destination: options.log, showsSecrets: options.logSecrets), pacers: Pacers())
  }

  /// Serves until SIGINT or SIGTERM. The first line on standard output is a
  /// JSON object with the bound port, for scripts that ask for port 0.
  public func run() async throws {
    var logger = Logger(label: "hlspack.serve")
    logger.logLevel = .warning
    let (host, root) = (options.host, responder.folder.realPath)
    let app = Application(
      responder: responder,
      configuration: .init(address: .hostname(host, port: options.port), serverName: "hlspack"),
      onServerRunning: { channel in
        let port = channel.localAddress?.port ?? 0
        let url = "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/"
        let announcement: [String: Any] = ["event": "listening", "host": host, "port": port, "url": url, "root": root]
        if var line = try? JSONSerialization.data(
          withJSONObject: announcement, options: [.sortedKeys, .withoutEscapingSlashes])
        {
          line.append(0x0A)
          FileHandle.standardOutput.write(line)
        }
      },
      logger: logger)
    var configuration = ServiceGroupConfiguration(
      services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    configuration.maximumGracefulShutdownDuration = .seconds(5)
    do {
      try await ServiceGroup(configuration: configuration).run()
    } catch let error as IOError where error.errnoCode == EADDRINUSE {
      throw ServeError.addressInUse(host: options.host, port: options.port)
    } catch let error as IOError {
      throw ServeError.cannotListen(host: options.host, port: options.port, reason: "\(error)")
    }
  }
}
