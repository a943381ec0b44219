internal import COpenSSL

/// An X.509 v3 extension of the certificates `serve --tls auto` makes (RFC 5280
/// section 4.2), written for OpenSSL in its configuration syntax (x509v3_config(5)).
public enum CertificateExtension: Equatable, Sendable {
  /// Critical basic constraints: an authority whose chain below it is at most
  /// `pathLength` authorities long, or (nil) not an authority.
  case basicConstraints(authorityPathLength: Int?)
  /// Critical key usage.
  case keyUsage([KeyUsage])
  /// Extended key usage: TLS server authentication.
  case serverAuthentication
  case subjectAlternativeNames([SubjectAlternativeName])
  /// The SHA-1 of the subject's public key (RFC 5280 section 4.2.1.2, method 1).
  case subjectKeyIdentifier
  /// The issuer's subject key identifier.
  case authorityKeyIdentifier

  public enum KeyUsage: String, Sendable {
    case digitalSignature, keyCertSign, cRLSign
  }

  var nid: Int32 {
    switch self {
    case .basicConstraints: NID_basic_constraints
    case .keyUsage: NID_key_usage
    case .serverAuthentication: NID_ext_key_usage
    case .subjectAlternativeNames: NID_subject_alt_name
    case .subjectKeyIdentifier: NID_subject_key_identifier
    case .authorityKeyIdentifier: NID_authority_key_identifier
    }
  }

  func configuration() throws -> String {
    switch self {
    case .basicConstraints(let pathLength?): "critical,CA:TRUE,pathlen:\(pathLength)"
    case .basicConstraints(nil): "critical,CA:FALSE"
    case .keyUsage(let usages): "critical," + usages.map(\.rawValue).joined(separator: ",")
    case .serverAuthentication: "serverAuth"
    case .subjectAlternativeNames(let names): try names.map { try $0.configuration() }.joined(separator: ",")
    case .subjectKeyIdentifier: "hash"
    case .authorityKeyIdentifier: "keyid:always"
    }
  }
}

/// A name a certificate is valid for (RFC 5280 section 4.2.1.6).
public enum SubjectAlternativeName: Equatable, Sendable {
  /// A DNS name in ASCII (an IDN as its `xn--` form).
  case dns(String)
  /// An IPv4 (4 bytes) or IPv6 (16 bytes) address.
  case ipAddress([UInt8])

  func configuration() throws -> String {
    switch self {
    case .dns(let name):
      // The configuration syntax separates names with commas.
      guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ",") }) else {
        throw OpenSSLError(call: "subjectAltName", reason: "not an ASCII DNS name: \(name)")
      }
      return "DNS:" + name
    case .ipAddress(let bytes) where bytes.count == 4:
      return "IP:" + bytes.map(String.init).joined(separator: ".")
    case .ipAddress(let bytes) where bytes.count == 16:
      let groups = stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
      return "IP:" + groups.joined(separator: ":")
    case .ipAddress(let bytes):
      throw OpenSSLError(call: "subjectAltName", reason: "an IP address of \(bytes.count) bytes")
    }
  }
}
