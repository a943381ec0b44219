internal import COpenSSL

/// An ECDSA P-256 private key, as `serve --tls auto` signs its certificates
/// with. It owns one OpenSSL `EVP_PKEY`, freed with it.
public final class SigningKey {
  let key: OpaquePointer

  private init(owning key: OpaquePointer) { self.key = key }

  deinit { EVP_PKEY_free(key) }

  /// A new key on the P-256 curve, from OpenSSL's CSPRNG.
  public static func makeP256() throws -> SigningKey {
    guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
      throw OpenSSLError.last("EVP_PKEY_CTX_new_from_name(EC)")
    }
    defer { EVP_PKEY_CTX_free(context) }
    try check(EVP_PKEY_keygen_init(context), "EVP_PKEY_keygen_init")
    try check(EVP_PKEY_CTX_set_group_name(context, "P-256"), "EVP_PKEY_CTX_set_group_name(P-256)")
    var key: OpaquePointer?
    try check(EVP_PKEY_generate(context, &key), "EVP_PKEY_generate(P-256)")
    guard let key else { throw OpenSSLError.last("EVP_PKEY_generate(P-256)") }
    return SigningKey(owning: key)
  }

  /// Reads a PEM private key: PKCS #8 (`BEGIN PRIVATE KEY`) or SEC 1 (`BEGIN EC PRIVATE KEY`).
  public convenience init(pem: String) throws {
    self.init(owning: try PEMText.read(pem, "PEM_read_bio_PrivateKey") { PEM_read_bio_PrivateKey($0, nil, nil, nil) })
  }

  /// The key as unencrypted PKCS #8 PEM (RFC 5958, RFC 7468 section 10).
  public func pem() throws -> String {
    try PEMText.write("PEM_write_bio_PrivateKey") { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }
  }
}
