import HLSPackCrypto

/// Where a whole-segment AES-128 run stands (one CBC run per segment, PKCS#7
/// at its end; RFC 8216bis 4.4.4.4): what the next thread to encrypt it needs.
/// `SegmentFileWriter` hands it between the muxing and the writing thread.
struct SegmentCBCRun {
  var key: [UInt8]
  /// The segment's IV, then the last ciphertext block.
  var iv: [UInt8]
  /// Plaintext after the last whole block, not yet encrypted.
  var pending: [UInt8] = []

  /// Follows the cipher over `plaintext`, which came out as `ciphertext`:
  /// the whole blocks this update completed (OpenSSL holds back the rest
  /// when encrypting, never a whole block).
  mutating func advance(over plaintext: [UInt8], ciphertext: ArraySlice<UInt8>) {
    if ciphertext.count >= AES128CBC.blockSize { iv = Array(ciphertext.suffix(AES128CBC.blockSize)) }
    let held = (pending.count + plaintext.count) % AES128CBC.blockSize
    pending = plaintext.count >= held ? Array(plaintext.suffix(held)) : Array((pending + plaintext).suffix(held))
  }
}
