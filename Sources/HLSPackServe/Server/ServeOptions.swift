/// How `hlspack serve` was asked to run.
public struct ServeOptions: Sendable {
  /// The folder to serve; nil in proxy mode.
  public var folder: String?
  /// Proxy mode: the origin's URL, whose files are served under the same paths.
  public var upstream: String?
  /// `--gzip`: playlists compressed for clients that accept gzip.
  public var gzipPlaylists: Bool
  public var host: String
  /// 0 picks a free port; the one bound is printed on the first line of standard output.
  public var port: Int
  /// A file path, `-` for standard output, or nil for no request log.
  public var log: String?
  public var logSecrets: Bool
  public var scenario: String?
  /// HTTPS on `tlsPort` as well as HTTP on `port`, when set.
  public var tls: TLSSource?
  public var tlsPort: Int
  /// Timeouts on clients, and the cap on connections.
  public var limits = ConnectionLimits()
  /// Proxy mode: the time allowed for the origin's response head, and for the
  /// whole of a body read before it is answered (playlists, keys).
  public var upstreamTimeout = Duration.seconds(30)

  public init(
    folder: String?, upstream: String? = nil, host: String, port: Int, log: String?, logSecrets: Bool,
    scenario: String?, tls: TLSSource? = nil, tlsPort: Int = 0, gzipPlaylists: Bool = false
  ) {
    self.folder = folder
    self.upstream = upstream
    self.gzipPlaylists = gzipPlaylists
    self.host = host
    self.port = port
    self.log = log
    self.logSecrets = logSecrets
    self.scenario = scenario
    self.tls = tls
    self.tlsPort = tlsPort
  }
}
