internal import COpenSSL

/// SHA-256 and HMAC-SHA-256 through EVP.
public enum Digest {
  public static func sha256(_ data: [UInt8]) throws -> [UInt8] {
    var out = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    try check(EVP_Digest(data, data.count, &out, &length, EVP_sha256(), nil), "EVP_Digest(SHA-256)")
    return out
  }

  public static func hmacSHA256(key: [UInt8], message: [UInt8]) throws -> [UInt8] {
    var out = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    guard HMAC(EVP_sha256(), key, Int32(key.count), message, message.count, &out, &length) != nil else {
      throw OpenSSLError.last("HMAC(SHA-256)")
    }
    return out
  }
}
