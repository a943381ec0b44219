import Foundation
import HLSPackCore
import HLSPackCrypto

/// `--tls auto`: a certificate authority made once and kept in a state
/// folder (ca.pem, and ca-key.pem readable by its owner only), and a server
/// certificate it signs at every start for localhost, 127.0.0.1, ::1 and the
/// names asked for. Clients trust the authority once (`curl --cacert`,
/// `ffmpeg -ca_file`, a simulator's or emulator's root store).
struct LocalAuthority {
  let folder: URL
  var caCertificate: URL { folder.appendingPathComponent("ca.pem") }
  var caKey: URL { folder.appendingPathComponent("ca-key.pem") }
  var serverCertificate: URL { folder.appendingPathComponent("server.pem") }
  var serverKey: URL { folder.appendingPathComponent("server-key.pem") }

  /// Apple's platforms refuse server certificates valid for more than 825 days (Apple support article HT210176).
  static let serverValidity = 397 * 86_400
  static let authorityValidity = 10 * 365 * 86_400

  /// Loads the authority (making it the first time) and issues the server certificate; returns its files.
  func prepare(names: [String]) throws -> (certificate: URL, key: URL) {
    try StateFolder.prepare(folder.path)
    let authority = try loadOrMakeAuthority()
    let key = try SigningKey.makeP256()
    let now = Int(Date().timeIntervalSince1970)
    var alternativeNames: [SubjectAlternativeName] = [.dns("localhost"), .ipAddress([127, 0, 0, 1])]
    alternativeNames.append(.ipAddress([UInt8](repeating: 0, count: 15) + [1]))
    alternativeNames += names.map { name in IPv4Address(name).map { .ipAddress($0.bytes) } ?? .dns(name) }
    let content = CertificateContent(
      subject: [.init("CN", "hlspack serve")], notBefore: now - 3600, notAfter: now + Self.serverValidity,
      extensions: [
        .basicConstraints(authorityPathLength: nil), .keyUsage([.digitalSignature]), .serverAuthentication,
        .subjectAlternativeNames(alternativeNames), .subjectKeyIdentifier, .authorityKeyIdentifier,
      ])
    let certificate = try X509Certificate.issue(content, for: key, by: authority)
    try Self.writePrivate(try key.pem(), to: serverKey)
    try Data(try certificate.pem().utf8).write(to: serverCertificate, options: .atomic)
    return (serverCertificate, serverKey)
  }

  private func loadOrMakeAuthority() throws -> (certificate: X509Certificate, key: SigningKey) {
    if FileManager.default.fileExists(atPath: caCertificate.path) {
      let certificate: X509Certificate
      do {
        certificate = try X509Certificate(pem: String(contentsOf: caCertificate, encoding: .utf8))
      } catch {
        throw ServeError.certificateUnreadable(path: caCertificate.path, reason: "\(error)")
      }
      try StateFolder.checkPrivateKey(caKey.path)
      let key: SigningKey
      do {
        key = try SigningKey(pem: String(contentsOf: caKey, encoding: .utf8))
      } catch {
        throw ServeError.certificateUnreadable(path: caKey.path, reason: "\(error)")
      }
      guard certificate.isCertified(key) else {
        throw ServeError.certificateUnreadable(path: caKey.path, reason: "not the key of \(caCertificate.path)")
      }
      return (certificate, key)
    }
    let key = try SigningKey.makeP256()
    let now = Int(Date().timeIntervalSince1970)
    let content = CertificateContent(
      subject: [.init("O", "hlspack"), .init("CN", "hlspack serve local authority \(now)")],
      notBefore: now - 3600, notAfter: now + Self.authorityValidity,
      extensions: [
        .basicConstraints(authorityPathLength: 0), .keyUsage([.keyCertSign, .cRLSign]), .subjectKeyIdentifier,
      ])
    let certificate = try X509Certificate.issue(content, for: key, by: nil)
    try Self.writePrivate(try key.pem(), to: caKey)
    try Data(try certificate.pem().utf8).write(to: caCertificate, options: .atomic)
    return (certificate, key)
  }

  /// Writes a private key readable and writable by its owner only, never briefly wider.
  static func writePrivate(_ text: String, to url: URL) throws {
    let temporary = url.path + ".tmp"
    unlink(temporary)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    guard descriptor >= 0 else {
      throw ServeError.certificateUnreadable(path: url.path, reason: SystemError.last.reason)
    }
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    try handle.write(contentsOf: Data(text.utf8))
    try handle.close()
    guard rename(temporary, url.path) == 0 else {
      throw ServeError.certificateUnreadable(path: url.path, reason: SystemError.last.reason)
    }
  }
}

/// A dotted IPv4 address, for names given to `--tls-name`.
struct IPv4Address {
  let bytes: [UInt8]

  init?(_ text: String) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    let values = parts.compactMap { UInt8($0) }
    guard parts.count == 4, values.count == 4 else { return nil }
    bytes = values
  }
}
