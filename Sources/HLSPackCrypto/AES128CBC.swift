internal import COpenSSL

/// AES-128-CBC through OpenSSL EVP. One instance owns one cipher context and
/// is used by one thread at a time; make one per worker.
public final class AES128CBC {
  public static let blockSize = 16
  private let context: OpaquePointer

  public init() throws {
    guard let context = EVP_CIPHER_CTX_new() else { throw OpenSSLError.last("EVP_CIPHER_CTX_new") }
    self.context = context
  }

  deinit { EVP_CIPHER_CTX_free(context) }

  /// Whole-segment encryption (HLS METHOD=AES-128): PKCS#7 padding is always
  /// added, so the result is 16·(⌊n/16⌋+1) bytes.
  public func encryptPadded(_ plain: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
    try run(plain, key: key, iv: iv, encrypt: true, padding: true)
  }

  public func decryptPadded(_ cipher: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
    try run(cipher, key: key, iv: iv, encrypt: false, padding: true)
  }

  /// Raw CBC over whole blocks (no padding); `data.count` must be a multiple of 16.
  public func encryptBlocks(_ data: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
    try run(data, key: key, iv: iv, encrypt: true, padding: false)
  }

  public func decryptBlocks(_ data: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
    try run(data, key: key, iv: iv, encrypt: false, padding: false)
  }

  private func run(_ input: [UInt8], key: [UInt8], iv: [UInt8], encrypt: Bool, padding: Bool) throws -> [UInt8] {
    guard key.count == 16 else { throw OpenSSLError(call: "AES-128-CBC", reason: "key is \(key.count) bytes, expected 16") }
    guard iv.count == 16 else { throw OpenSSLError(call: "AES-128-CBC", reason: "IV is \(iv.count) bytes, expected 16") }
    if !padding, input.count % Self.blockSize != 0 {
      throw OpenSSLError(call: "AES-128-CBC", reason: "unpadded input of \(input.count) bytes is not a multiple of 16")
    }
    try check(EVP_CipherInit_ex(context, EVP_aes_128_cbc(), nil, key, iv, encrypt ? 1 : 0), "EVP_CipherInit_ex")
    try check(EVP_CIPHER_CTX_set_padding(context, padding ? 1 : 0), "EVP_CIPHER_CTX_set_padding")
    var output = [UInt8](repeating: 0, count: input.count + Self.blockSize)
    var written = 0
    try output.withUnsafeMutableBufferPointer { out in
      guard let base = out.baseAddress else { return }
      // EVP lengths are Int32: feed at most 16 MiB at a time.
      let chunk = 16 << 20
      var offset = 0
      while offset < input.count {
        let n = min(chunk, input.count - offset)
        var produced: Int32 = 0
        try input.withUnsafeBufferPointer { inp in
          try check(
            EVP_CipherUpdate(context, base + written, &produced, inp.baseAddress.map { $0 + offset }, Int32(n)),
            "EVP_CipherUpdate")
        }
        written += Int(produced)
        offset += n
      }
      var final: Int32 = 0
      try check(EVP_CipherFinal_ex(context, base + written, &final), encrypt ? "EVP_CipherFinal_ex" : "EVP_CipherFinal_ex (bad key, IV or padding)")
      written += Int(final)
    }
    output.removeLast(output.count - written)
    return output
  }
}
