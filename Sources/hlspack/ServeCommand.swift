import ArgumentParser
import Dispatch
import Foundation
import HLSPackServe

struct ServeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Serve packages to players under test: byte ranges, CORS, a request log, and injected faults.",
    discussion: """
      Serves the files under FOLDER (never outside it, never a folder listing) over \
      HTTP, and HTTPS too with --tls, with HLS media types, single byte ranges, ETag and Last-Modified, and CORS for \
      browser players. The first line on standard output is JSON with the bound port \
      ({"event":"listening","scheme":"http","port":…}), then one for HTTPS with the \
      authority's certificate ("ca"); --port 0 and --tls-port 0 pick free ones.

      With --upstream URL instead of FOLDER, serves the same paths from an origin \
      (proxy mode): range and conditional headers go to it, its status, validators and \
      body come back, streamed, through the same rules, log and stats. An origin that \
      does not answer, resets, cuts a playlist or key short, sends one over 16 MiB or not \
      within --upstream-timeout gives 502 Bad Gateway with the reason as plain text (and in \
      the log's upstream_error); a GET or HEAD whose kept-alive connection the origin had \
      closed is sent again once on a new one. A segment the origin cuts short after its \
      head was passed on ends the client's connection early. --gzip compresses playlists \
      (only they) for clients that send Accept-Encoding: gzip, except for Range requests.

      Connections are closed, without an answer, when the client has not sent a whole \
      request head (and body) within --header-timeout of the connection's start or of its \
      first byte, when a kept-alive one stays silent --idle-timeout after a response, and \
      when the client has taken none of the response for --send-timeout. Connections beyond \
      --max-connections are closed as soon as they are accepted.

      --scenario takes rules (JSON; Profiles/serve-scenario.schema.json) that require \
      a header, cookie or query token, answer a status, delay, stall, truncate, close \
      the connection, corrupt keys or pace throughput, for some requests. \
      POST /_hlspack/scenario replaces them while serving; GET /_hlspack/stats counts \
      requests, key fetches, bytes and faults.

      SIGINT or SIGTERM stops the server after in-flight responses (at most 5 s). \
      A request log that stops taking lines (a full disk, a reader of --log - that went \
      away) is reported once on standard error and dropped; serving goes on.

      Exit status: 0 stopped by a signal; 1 cannot listen (address in use); \
      2 unusable arguments, folder, origin URL, scenario, log file, certificate, --tls-name or --state \
      folder (not ours, writable by others, or holding a key others can read); 64 command-line usage \
      error (FOLDER and --upstream together, or neither).
      """)

  static let cannotListen = ExitCode(1)
  static let unusable = ExitCode(2)

  @Argument(help: ArgumentHelp("The folder to serve (one or more packages); not with --upstream.", valueName: "folder"))
  var folder: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Proxy mode: serve the same paths from this origin (http:// or https://) instead of a folder.",
      valueName: "url"))
  var upstream: String?

  @Flag(name: .long, help: "Send playlists gzip-compressed to clients that accept it (never a Range response).")
  var gzip = false

  @Option(name: .long, help: "Address to listen on; loopback unless told otherwise.")
  var host = "127.0.0.1"

  @Option(name: .long, help: "Port to listen on; 0 picks a free one.")
  var port = 8080

  @Option(
    name: .long,
    help: ArgumentHelp("Scenario rules (JSON) applied to requests.", valueName: "file"))
  var scenario: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Request log, one JSON line per request: a file (appended to) or - for standard output.",
      valueName: "file"))
  var log: String?

  @Flag(name: .long, help: "Log Authorization, Cookie and query values as sent, instead of masked.")
  var logSecrets = false

  @Option(
    name: .long,
    help: ArgumentHelp(
      "HTTPS as well, on --tls-port: auto (a local authority kept in --state signs a certificate for localhost, 127.0.0.1, ::1 and --tls-name) or CERT,KEY (PEM files).",
      valueName: "auto|cert,key"))
  var tls: String?

  @Option(name: .long, help: "Port for HTTPS; 0 picks a free one.")
  var tlsPort = 8443

  @Option(
    name: .long,
    help: ArgumentHelp("Another host name or IPv4 address for the certificate (repeatable).", valueName: "name"))
  var tlsName: [String] = []

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Folder of the local authority (default: $XDG_DATA_HOME/hlspack/serve-ca or ~/.local/share/hlspack/serve-ca).",
      valueName: "dir"))
  var state: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Seconds a client has to send a request head (from the connection's start, or from its first byte after an idle wait), and then its body if it has one.",
      valueName: "seconds"))
  var headerTimeout = Self.seconds(ConnectionLimits.defaultHeaderTimeout)

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Seconds a kept-alive connection may wait, after a response, for the next request.", valueName: "seconds"))
  var idleTimeout = Self.seconds(ConnectionLimits.defaultIdleTimeout)

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Seconds a client may leave response bytes waiting without taking any.", valueName: "seconds"))
  var sendTimeout = Self.seconds(ConnectionLimits.defaultSendTimeout)

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Connections served at once over HTTP and HTTPS; more are closed at once (default: half the open-file limit less a reserve, at most \(ConnectionLimits.largestDefaultCap)).",
      valueName: "n"))
  var maxConnections: Int?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Proxy mode: seconds for each request to the origin, for its response head and for the whole of a playlist or key.",
      valueName: "seconds"))
  var upstreamTimeout = 30.0

  func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("--port \(port) is not 0…65535") }
    guard (0...65535).contains(tlsPort) else { throw ValidationError("--tls-port \(tlsPort) is not 0…65535") }
    for (name, value) in [
      ("--header-timeout", headerTimeout), ("--idle-timeout", idleTimeout), ("--send-timeout", sendTimeout),
      ("--upstream-timeout", upstreamTimeout),
    ] {
      guard value >= 0.001, value <= 86400 else { throw ValidationError("\(name) \(value) is not 0.001…86400 seconds") }
    }
    if let maxConnections {
      guard maxConnections >= 1 else { throw ValidationError("--max-connections \(maxConnections) is not 1 or more") }
      if let largest = ConnectionLimits.largestAllowedCap(ConnectionLimits.openFileLimit()), maxConnections > largest {
        throw ValidationError(
          "--max-connections \(maxConnections) needs more file descriptors than the open-file limit allows (at most \(largest) connections now; raise it with ulimit -n)"
        )
      }
    }
    switch (folder, upstream) {
    case (_?, _?): throw ValidationError("give either FOLDER or --upstream URL, not both")
    case (nil, nil): throw ValidationError("give a FOLDER to serve, or --upstream URL to proxy an origin")
    default: break
    }
  }

  func run() throws {
    // A reader of standard output (`--log -`) or of a socket that goes away
    // is an error of that write, not the end of the server.
    signal(SIGPIPE, SIG_IGN)
    let server: FixtureServer
    do {
      let source = try tls.map {
        try TLSSource(argument: $0, state: state ?? TLSSource.defaultState(), names: tlsName)
      }
      var options = ServeOptions(
        folder: folder, upstream: upstream, host: host, port: port, log: log, logSecrets: logSecrets,
        scenario: scenario, tls: source, tlsPort: tlsPort, gzipPlaylists: gzip)
      options.limits = ConnectionLimits(
        headerTimeout: Self.duration(headerTimeout), idleTimeout: Self.duration(idleTimeout),
        sendTimeout: Self.duration(sendTimeout), maxConnections: maxConnections)
      options.upstreamTimeout = Self.duration(upstreamTimeout)
      server = try FixtureServer(options: options)
    } catch {
      printError("\(error)")
      throw Self.unusable
    }
    if let error = Self.waitFor({ try await server.run() }) {
      printError("\(error)")
      throw Self.cannotListen
    }
  }

  private static func seconds(_ duration: Duration) -> Double { ConnectionLimits.seconds(duration) }
  private static func duration(_ seconds: Double) -> Duration { .milliseconds(Int64((seconds * 1000).rounded())) }

  /// Runs `work` on the concurrency pool and waits for it: the other
  /// commands are synchronous, so the root command stays a ParsableCommand.
  private static func waitFor(_ work: @escaping @Sendable () async throws -> Void) -> (any Error)? {
    let done = DispatchSemaphore(value: 0)
    let outcome = Outcome()
    Task {
      do { try await work() } catch { outcome.error = error }
      done.signal()
    }
    done.wait()
    return outcome.error
  }

  private final class Outcome: @unchecked Sendable {
    // Written by the task before it signals, read after the wait.
    var error: (any Error)?
  }
}
