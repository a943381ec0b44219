internal import COpenSSL

/// Unpadded AES-128-CBC for SAMPLE-AES, run in place.
///
/// `AES128CBC` sets the key up again on every call and returns a new array;
/// SAMPLE-AES restarts the chain for every NAL unit and audio frame of every
/// rendition, so this keeps one key schedule for the whole key period and only
/// reloads the IV. One instance per thread, like `AES128CBC`.
public final class SampleAESCipher {
  private let context: OpaquePointer

  public init(key: [UInt8], encrypt: Bool) throws {
    guard key.count == 16 else { throw SampleAESError.keyLength(key.count) }
    guard let context = EVP_CIPHER_CTX_new() else { throw OpenSSLError.last("EVP_CIPHER_CTX_new") }
    do {
      try check(
        EVP_CipherInit_ex(context, try Algorithms.aes128CBC(), nil, key, nil, encrypt ? 1 : 0), "EVP_CipherInit_ex")
      // SAMPLE-AES only ever feeds whole blocks; partial blocks stay clear.
      try check(EVP_CIPHER_CTX_set_padding(context, 0), "EVP_CIPHER_CTX_set_padding")
    } catch {
      EVP_CIPHER_CTX_free(context)
      throw error
    }
    self.context = context
  }

  deinit { EVP_CIPHER_CTX_free(context) }

  /// Starts a new CBC chain from `iv`, keeping the key schedule.
  public func restart(iv: UnsafeBufferPointer<UInt8>) throws {
    guard iv.count == 16, let base = iv.baseAddress else { throw SampleAESError.ivLength(iv.count) }
    // A nil cipher and key with enc = -1 reloads only the IV.
    try check(EVP_CipherInit_ex(context, nil, nil, nil, base, -1), "EVP_CipherInit_ex(IV)")
  }

  /// Continues the chain over `count` bytes (a multiple of 16) at `bytes`, in place.
  public func crypt(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) throws {
    precondition(count % 16 == 0, "SAMPLE-AES feeds whole blocks only")
    var offset = 0
    while offset < count {
      // EVP lengths are Int32.
      let n = min(count - offset, 1 << 24)
      var produced: Int32 = 0
      try check(EVP_CipherUpdate(context, bytes + offset, &produced, bytes + offset, Int32(n)), "EVP_CipherUpdate")
      // Without padding CBC never holds a whole block back.
      guard Int(produced) == n else {
        throw OpenSSLError(call: "EVP_CipherUpdate", reason: "returned \(produced) of \(n) bytes")
      }
      offset += n
    }
  }
}

extension SampleAESCipher {
  /// Checks the IV once per call, so that the hot loops can take a pointer.
  public static func withIV<R>(_ iv: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) throws -> R) throws -> R {
    guard iv.count == 16 else { throw SampleAESError.ivLength(iv.count) }
    return try iv.withUnsafeBufferPointer(body)
  }
}
