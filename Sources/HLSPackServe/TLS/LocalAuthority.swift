import Crypto
import Foundation
import HLSPackCore
import SwiftASN1
import X509

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
  static let serverValidity: TimeInterval = 397 * 86_400
  static let authorityValidity: TimeInterval = 10 * 365 * 86_400

  /// Loads the authority (making it the first time) and issues the server certificate; returns its files.
  func prepare(names: [String]) throws -> (certificate: URL, key: URL) {
    try StateFolder.prepare(folder.path)
    let (authority, authorityKey) = try loadOrMakeAuthority()
    let key = P256.Signing.PrivateKey()
    let now = Date()
    let subject = try DistinguishedName { CommonName("hlspack serve") }
    var alternativeNames: [GeneralName] = ["localhost"].map { .dnsName($0) }
    alternativeNames += [[127, 0, 0, 1], [UInt8](repeating: 0, count: 15) + [1]].map {
      .ipAddress(ASN1OctetString(contentBytes: ArraySlice($0)))
    }
    alternativeNames += names.map { name in
      IPv4Address(name).map { .ipAddress(ASN1OctetString(contentBytes: ArraySlice($0.bytes))) } ?? .dnsName(name)
    }
    let publicKey = Certificate.PublicKey(key.publicKey)
    let extensions = try Certificate.Extensions {
      Critical(BasicConstraints.notCertificateAuthority)
      Critical(KeyUsage(digitalSignature: true))
      try ExtendedKeyUsage([.serverAuth])
      SubjectAlternativeNames(alternativeNames)
      SubjectKeyIdentifier(hash: publicKey)
      AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: authority.publicKey).keyIdentifier)
    }
    let certificate = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
      notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(Self.serverValidity),
      issuer: authority.subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
      issuerPrivateKey: Certificate.PrivateKey(authorityKey))
    try Self.writePrivate(key.pemRepresentation, to: serverKey)
    try Data(try certificate.serializeAsPEM().pemString.utf8).write(to: serverCertificate, options: .atomic)
    return (serverCertificate, serverKey)
  }

  private func loadOrMakeAuthority() throws -> (Certificate, P256.Signing.PrivateKey) {
    if FileManager.default.fileExists(atPath: caCertificate.path) {
      let certificate: Certificate
      do {
        certificate = try Certificate(pemEncoded: String(contentsOf: caCertificate, encoding: .utf8))
      } catch {
        throw ServeError.certificateUnreadable(path: caCertificate.path, reason: "\(error)")
      }
      try StateFolder.checkPrivateKey(caKey.path)
      do {
        let key = try P256.Signing.PrivateKey(pemRepresentation: String(contentsOf: caKey, encoding: .utf8))
        return (certificate, key)
      } catch {
        throw ServeError.certificateUnreadable(path: caKey.path, reason: "\(error)")
      }
    }
    let key = P256.Signing.PrivateKey()
    let now = Date()
    let name = try DistinguishedName {
      OrganizationName("hlspack")
      CommonName("hlspack serve local authority \(Int(now.timeIntervalSince1970))")
    }
    let publicKey = Certificate.PublicKey(key.publicKey)
    let certificate = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
      notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(Self.authorityValidity),
      issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
        Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        SubjectKeyIdentifier(hash: publicKey)
      },
      issuerPrivateKey: Certificate.PrivateKey(key))
    try Self.writePrivate(key.pemRepresentation, to: caKey)
    try Data(try certificate.serializeAsPEM().pemString.utf8).write(to: caCertificate, options: .atomic)
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
