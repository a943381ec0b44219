internal import COpenSSL

/// SHA-256 and HMAC-SHA-256 through EVP.
public enum Digest {
  public static func sha256(_ data: [UInt8]) throws -> [UInt8] {
    let digest = try SHA256Stream()
    try digest.update(data)
    return try digest.finish()
  }

  public static func hmacSHA256(key: [UInt8], message: [UInt8]) throws -> [UInt8] {
    var out = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    guard HMAC(try Algorithms.sha256(), key, Int32(key.count), message, message.count, &out, &length) != nil else {
      throw OpenSSLError.last("HMAC(SHA-256)")
    }
    return out
  }
}

/// SHA-256 over data that arrives in pieces (a segment written part by part).
public final class SHA256Stream {
  private let context: OpaquePointer

  public init() throws {
    guard let context = EVP_MD_CTX_new() else { throw OpenSSLError.last("EVP_MD_CTX_new") }
    self.context = context
    try check(EVP_DigestInit_ex(context, try Algorithms.sha256(), nil), "EVP_DigestInit_ex(SHA-256)")
  }

  deinit { EVP_MD_CTX_free(context) }

  public func update(_ bytes: UnsafeRawBufferPointer) throws {
    try check(EVP_DigestUpdate(context, bytes.baseAddress, bytes.count), "EVP_DigestUpdate(SHA-256)")
  }

  public func update(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { try update($0) }
  }

  /// The digest of everything passed to `update`; the stream is done after it.
  public func finish() throws -> [UInt8] {
    var out = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    try check(EVP_DigestFinal_ex(context, &out, &length), "EVP_DigestFinal_ex(SHA-256)")
    return out
  }
}
