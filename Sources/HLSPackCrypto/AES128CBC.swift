internal import COpenSSL

/// AES-128-CBC through OpenSSL EVP. One instance owns one cipher context and
/// is used by one thread at a time; make one per worker.
///
/// Data can arrive in pieces (`start`, `update` per piece, `finish`), so a
/// segment is encrypted as the muxer produces it and never has to be held
/// whole; CBC chaining and any partial block carry over in the context.
public final class AES128CBC {
  public static let blockSize = 16
  private let context: OpaquePointer
  /// EVP lengths are Int32: data goes through in pieces of at most 16 MiB.
  private static let chunk = 16 << 20

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

  /// Starts a run over data that arrives in pieces. Every call starts afresh:
  /// nothing of an earlier run carries over (RFC 8216bis §4.4.4.4).
  public func start(key: [UInt8], iv: [UInt8], encrypt: Bool = true, padding: Bool = true) throws {
    guard key.count == 16 else {
      throw OpenSSLError(call: "AES-128-CBC", reason: "key is \(key.count) bytes, expected 16")
    }
    guard iv.count == 16 else {
      throw OpenSSLError(call: "AES-128-CBC", reason: "IV is \(iv.count) bytes, expected 16")
    }
    try check(
      EVP_CipherInit_ex(context, try Algorithms.aes128CBC(), nil, key, iv, encrypt ? 1 : 0), "EVP_CipherInit_ex")
    try check(EVP_CIPHER_CTX_set_padding(context, padding ? 1 : 0), "EVP_CIPHER_CTX_set_padding")
  }

  /// Processes the next piece into the front of `output`, which grows when it
  /// is too small and never shrinks, so one buffer serves every piece.
  /// Returns how many bytes of `output` were produced.
  public func update(_ input: [UInt8], into output: inout [UInt8]) throws -> Int {
    let capacity = input.count + Self.blockSize
    if output.count < capacity { output.append(contentsOf: repeatElement(0, count: capacity - output.count)) }
    var written = 0
    try input.withUnsafeBufferPointer { source in
      try output.withUnsafeMutableBufferPointer { target in
        guard let base = target.baseAddress else { return }
        var offset = 0
        while offset < source.count {
          let n = min(Self.chunk, source.count - offset)
          var produced: Int32 = 0
          try check(
            EVP_CipherUpdate(context, base + written, &produced, source.baseAddress.map { $0 + offset }, Int32(n)),
            "EVP_CipherUpdate")
          written += Int(produced)
          offset += n
        }
      }
    }
    return written
  }

  /// Ends the run: the last block with its padding when encrypting; when
  /// decrypting with padding, the last plaintext bytes once the padding checks out.
  public func finish() throws -> [UInt8] {
    var last = [UInt8](repeating: 0, count: Self.blockSize)
    var produced: Int32 = 0
    try check(EVP_CipherFinal_ex(context, &last, &produced), "EVP_CipherFinal_ex (bad key, IV or padding)")
    return Array(last.prefix(Int(produced)))
  }

  private func run(_ input: [UInt8], key: [UInt8], iv: [UInt8], encrypt: Bool, padding: Bool) throws -> [UInt8] {
    if !padding, input.count % Self.blockSize != 0 {
      throw OpenSSLError(call: "AES-128-CBC", reason: "unpadded input of \(input.count) bytes is not a multiple of 16")
    }
    try start(key: key, iv: iv, encrypt: encrypt, padding: padding)
    var output: [UInt8] = []
    let produced = try update(input, into: &output)
    output.removeLast(output.count - produced)
    output += try finish()
    return output
  }
}
