import HLSPackCore
import AsyncHTTPClient
import Foundation
import NIOCore

import NIOSSL

/// How `verify` reads a package over HTTP: how long one resource and the
/// whole run may take, and a CA bundle trusted besides the system's.
public struct HTTPReadOptions: Sendable {
  /// Seconds from a request's start to its body's last byte (`--resource-timeout`).
  public var resourceTimeout: Double = 120
  /// Seconds for the whole run, every request included (`--timeout`).
  public var runTimeout: Double = 3600
  /// A PEM file of CA certificates trusted for https in addition to the system store (`--cacert`).
  public var caFile: String?

  public init() {}
}

/// One run's HTTP client (NIO's event loop: waiting for bytes costs no CPU)
/// and its deadlines. Redirects are not followed by the client:
/// `HTTPPackageSource` follows those that stay on the package's server.
final class HTTPSession: Sendable {
  let client: HTTPClient
  let options: HTTPReadOptions
  /// When the run's time is over.
  let runDeadline: Date

  /// The longest silence between two reads of one response, within the resource's deadline.
  static let readTimeout: Double = 60

  init(_ options: HTTPReadOptions) throws(VerifyError) {
    self.options = options
    runDeadline = Date(timeIntervalSinceNow: options.runTimeout)
    var configuration = HTTPClient.Configuration()
    configuration.redirectConfiguration = .disallow
    configuration.decompression = .disabled
    configuration.connectionPool.retryConnectionEstablishment = false
    let read = min(Self.readTimeout, options.resourceTimeout)
    configuration.timeout = .init(
      connect: .milliseconds(Int64(read * 1000)), read: .milliseconds(Int64(read * 1000)))
    if let caFile = options.caFile {
      var tls = TLSConfiguration.makeClientConfiguration()
      do {
        let certificates = try NIOSSLCertificate.fromPEMFile(caFile)
        guard !certificates.isEmpty else { throw VerifyError(description: "\(caFile): no PEM certificate in it") }
        tls.additionalTrustRoots = [.certificates(certificates)]
      } catch let error as VerifyError {
        throw error
      } catch {
        throw VerifyError(description: "\(caFile): not a readable PEM CA bundle (\(error))")
      }
      configuration.tlsConfiguration = tls
    }
    client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
  }

  deinit {
    try? client.syncShutdown()
  }

  /// When a request started now must be complete, and what to say when it is not.
  func deadline() -> (date: Date, reason: String) {
    let own = Date(timeIntervalSinceNow: options.resourceTimeout)
    if own < runDeadline {
      return (own, "(not complete within the --resource-timeout of \(Self.seconds(options.resourceTimeout)))")
    }
    return (runDeadline, "(the run's --timeout of \(Self.seconds(options.runTimeout)) ran out)")
  }

  /// Why the run must stop: its time is over.
  var runExpired: String? {
    Date() >= runDeadline ? "the run's --timeout of \(Self.seconds(options.runTimeout)) ran out" : nil
  }

  static func seconds(_ value: Double) -> String {
    value == value.rounded() && value < 1e15 ? "\(Int(value)) s" : "\(value) s"
  }
}
