internal import COpenSSL

/// The algorithms hlspack uses, fetched from OpenSSL once per process.
/// `EVP_aes_128_cbc()` and `EVP_sha256()` make OpenSSL 3 look the algorithm up
/// again, under a lock, every time a context is set up with them (an
/// "implicit fetch"); an explicitly fetched algorithm is looked up once and
/// shared (OpenSSL 3 manual, crypto(7), "Performance" and "Explicit
/// fetching"). Swift initialises each on first use on one thread, so the
/// encoding threads never race to fetch the same algorithm.
enum Algorithms {
  // Fetched algorithms are reference-counted, read-only objects that OpenSSL
  // lets any thread use at once; they live as long as the process.
  nonisolated(unsafe) private static let fetchedAES128CBC = EVP_CIPHER_fetch(nil, "AES-128-CBC", nil)
  nonisolated(unsafe) private static let fetchedSHA256 = EVP_MD_fetch(nil, "SHA256", nil)

  static func aes128CBC() throws -> OpaquePointer {
    guard let cipher = fetchedAES128CBC else { throw OpenSSLError.last("EVP_CIPHER_fetch(AES-128-CBC)") }
    return cipher
  }

  static func sha256() throws -> OpaquePointer {
    guard let digest = fetchedSHA256 else { throw OpenSSLError.last("EVP_MD_fetch(SHA256)") }
    return digest
  }
}
