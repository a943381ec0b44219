/// Why `hlspack serve` cannot start or cannot take a scenario.
public enum ServeError: Error, CustomStringConvertible, Equatable {
  case folderMissing(path: String)
  case notAFolder(path: String)
  /// `ports`: the HTTP port, and the HTTPS port with --tls (either may be the one taken).
  case addressInUse(host: String, ports: [Int])
  case cannotListen(host: String, ports: [Int], reason: String)
  case scenarioUnreadable(path: String, reason: String)
  case scenarioInvalid(source: String, reason: String)
  case logUnwritable(path: String, reason: String)
  case certificateUnreadable(path: String, reason: String)
  case tlsArgument(String)
  /// `--state`: not a folder, or one that others could write to.
  case stateFolder(path: String, reason: String)
  /// `--tls-name`: neither a host name (IDNs are written in punycode) nor an IPv4 address.
  case tlsName(String)
  case upstreamInvalid(url: String, reason: String)
  /// Both a folder and --upstream, or neither.
  case contentSource

  public var description: String {
    switch self {
    case .folderMissing(let path): return "\(path): no such folder"
    case .notAFolder(let path): return "\(path): not a folder"
    case .addressInUse(let host, let ports):
      return
        "\(Self.addresses(host, ports)): address already in use (another server listens there; pick another port, or 0 for any)"
    case .cannotListen(let host, let ports, let reason):
      return "\(Self.addresses(host, ports)): cannot listen: \(reason)"
    case .scenarioUnreadable(let path, let reason): return "\(path): cannot read the scenario: \(reason)"
    case .scenarioInvalid(let source, let reason): return "\(source): invalid scenario: \(reason)"
    case .logUnwritable(let path, let reason): return "\(path): cannot write the request log: \(reason)"
    case .certificateUnreadable(let path, let reason): return "\(path): unusable certificate or key: \(reason)"
    case .tlsArgument(let value): return "--tls \(value): expected auto or CERT,KEY (two PEM files)"
    case .stateFolder(let path, let reason): return "--state \(path) \(reason)"
    case .tlsName(let name): return "--tls-name \(name): not a host name or IPv4 address"
    case .upstreamInvalid(let url, let reason): return "--upstream \(url): \(reason)"
    case .contentSource: return "give either a folder to serve or --upstream URL to proxy an origin, not both"
    }
  }

  private static func addresses(_ host: String, _ ports: [Int]) -> String {
    ports.map { "\(host):\($0)" }.joined(separator: " or ")
  }
}
