import Foundation
import NIOSSL

/// Where `--tls` takes its certificate from.
public enum TLSSource: Sendable, Equatable {
  /// The local authority kept in `state`, with extra names for the server certificate.
  case auto(state: String, names: [String])
  /// A certificate chain and its private key, both PEM files.
  case files(certificate: String, key: String)

  /// Reads `auto` or `CERT,KEY`; `names` are host names (IDNs too) or IPv4 addresses.
  public init(argument: String, state: String, names: [String]) throws {
    if argument == "auto" {
      self = .auto(state: state, names: try names.map(CertificateName.ascii))
      return
    }
    let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw ServeError.tlsArgument(argument) }
    self = .files(certificate: parts[0], key: parts[1])
  }

  /// The default state folder: `$XDG_DATA_HOME/hlspack/serve-ca`, else `~/.local/share/hlspack/serve-ca`.
  public static func defaultState(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
    let data =
      environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
    return data + "/hlspack/serve-ca"
  }
}

/// The server's TLS configuration, and the authority's certificate to hand to clients (auto only).
struct TLSSetup: Sendable {
  var configuration: TLSConfiguration
  var authority: String?

  init(_ source: TLSSource) throws {
    let certificatePath: String
    let keyPath: String
    switch source {
    case .auto(let state, let names):
      let local = LocalAuthority(folder: URL(fileURLWithPath: state, isDirectory: true))
      let issued: (certificate: URL, key: URL)
      do {
        issued = try local.prepare(names: names)
      } catch let error as ServeError {
        throw error
      } catch {
        throw ServeError.certificateUnreadable(path: state, reason: "\(error)")
      }
      (certificatePath, keyPath) = (issued.certificate.path, issued.key.path)
      authority = local.caCertificate.path
    case .files(let certificate, let key):
      (certificatePath, keyPath) = (certificate, key)
      authority = nil
    }
    let chain: [NIOSSLCertificate]
    let key: NIOSSLPrivateKey
    do {
      chain = try NIOSSLCertificate.fromPEMFile(certificatePath)
    } catch {
      throw ServeError.certificateUnreadable(path: certificatePath, reason: "\(error)")
    }
    do {
      key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
    } catch {
      throw ServeError.certificateUnreadable(path: keyPath, reason: "\(error)")
    }
    guard !chain.isEmpty else {
      throw ServeError.certificateUnreadable(path: certificatePath, reason: "no certificate in the file")
    }
    configuration = TLSConfiguration.makeServerConfiguration(
      certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
  }
}
