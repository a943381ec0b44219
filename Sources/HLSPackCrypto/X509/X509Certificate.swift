internal import COpenSSL

/// An X.509 certificate. It owns one OpenSSL `X509`, freed with it.
public final class X509Certificate {
  let certificate: OpaquePointer

  private init(owning certificate: OpaquePointer) { self.certificate = certificate }

  deinit { X509_free(certificate) }

  /// Reads the first certificate of PEM text.
  public convenience init(pem: String) throws {
    self.init(owning: try PEMText.read(pem, "PEM_read_bio_X509") { PEM_read_bio_X509($0, nil, nil, nil) })
  }

  public func pem() throws -> String {
    try PEMText.write("PEM_write_bio_X509") { PEM_write_bio_X509($0, certificate) }
  }

  /// Whether `key` is the private half of this certificate's public key.
  public func isCertified(_ key: SigningKey) -> Bool {
    X509_check_private_key(certificate, key.key) == 1
  }

  /// A v3 certificate of `key`'s public half with a random 159-bit serial
  /// number, signed (ECDSA with SHA-256) by `issuer`, or by `key` itself when
  /// `issuer` is nil.
  public static func issue(
    _ content: CertificateContent, for key: SigningKey, by issuer: (certificate: X509Certificate, key: SigningKey)?
  ) throws -> X509Certificate {
    guard let made = X509_new() else { throw OpenSSLError.last("X509_new") }
    let certificate = X509Certificate(owning: made)
    try check(X509_set_version(made, Int(X509_VERSION_3)), "X509_set_version")
    try setRandomSerial(made)
    for (time, date) in [(X509_getm_notBefore(made), content.notBefore), (X509_getm_notAfter(made), content.notAfter)] {
      guard ASN1_TIME_set(time, time_t(date)) != nil else { throw OpenSSLError.last("ASN1_TIME_set") }
    }
    let subject = try distinguishedName(content.subject)
    defer { X509_NAME_free(subject) }
    try check(X509_set_subject_name(made, subject), "X509_set_subject_name")
    try check(X509_set_issuer_name(made, issuer.map { X509_get_subject_name($0.certificate.certificate) } ?? subject),
      "X509_set_issuer_name")
    try check(X509_set_pubkey(made, key.key), "X509_set_pubkey")
    var context = X509V3_CTX()
    X509V3_set_ctx(&context, issuer?.certificate.certificate ?? made, made, nil, nil, 0)
    for item in content.extensions {
      let value = try item.configuration()
      guard let encoded = X509V3_EXT_nconf_nid(nil, &context, item.nid, value) else {
        throw OpenSSLError.last("X509V3_EXT_nconf_nid(\(value))")
      }
      defer { X509_EXTENSION_free(encoded) }
      try check(X509_add_ext(made, encoded, -1), "X509_add_ext(\(value))")
    }
    guard X509_sign(made, (issuer?.key ?? key).key, EVP_sha256()) > 0 else { throw OpenSSLError.last("X509_sign") }
    return certificate
  }

  /// A positive serial number of 20 bytes at most (RFC 5280 section 4.1.2.2).
  private static func setRandomSerial(_ certificate: OpaquePointer) throws {
    var bytes = try SecureRandom.bytes(20)
    bytes[0] &= 0x7F
    guard let number = BN_bin2bn(bytes, Int32(bytes.count), nil) else { throw OpenSSLError.last("BN_bin2bn") }
    defer { BN_free(number) }
    guard BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate)) != nil else {
      throw OpenSSLError.last("BN_to_ASN1_INTEGER")
    }
  }

  private static func distinguishedName(_ attributes: [CertificateContent.Attribute]) throws -> OpaquePointer {
    guard let name = X509_NAME_new() else { throw OpenSSLError.last("X509_NAME_new") }
    for attribute in attributes {
      let value = Array(attribute.value.utf8)
      guard X509_NAME_add_entry_by_txt(name, attribute.type, V_ASN1_UTF8STRING, value, Int32(value.count), -1, 0) == 1
      else {
        X509_NAME_free(name)
        throw OpenSSLError.last("X509_NAME_add_entry_by_txt(\(attribute.type))")
      }
    }
    return name
  }
}

/// What a new certificate says: subject, validity and extensions.
public struct CertificateContent: Sendable {
  /// A relative distinguished name: `type` is OpenSSL's short name ("CN", "O").
  public struct Attribute: Sendable {
    public var type: String
    public var value: String
    public init(_ type: String, _ value: String) { (self.type, self.value) = (type, value) }
  }

  public var subject: [Attribute]
  /// Seconds since 1970-01-01 UTC.
  public var notBefore: Int
  public var notAfter: Int
  public var extensions: [CertificateExtension]

  public init(subject: [Attribute], notBefore: Int, notAfter: Int, extensions: [CertificateExtension]) {
    (self.subject, self.notBefore, self.notAfter, self.extensions) = (subject, notBefore, notAfter, extensions)
  }
}
