internal import COpenSSL

/// OpenSSL's CSPRNG.
public enum SecureRandom {
  public static func bytes(_ count: Int) throws -> [UInt8] {
    var out = [UInt8](repeating: 0, count: count)
    try check(RAND_bytes(&out, Int32(count)), "RAND_bytes")
    return out
  }
}
