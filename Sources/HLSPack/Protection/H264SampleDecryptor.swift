import HLSPackCore
import HLSPackCrypto

/// Undoes `H264SampleEncryptor` (docs/conformance.md, SAMPLE-AES in MPEG-TS): in each slice NAL unit (types
/// 1 and 5) longer than 48 bytes as it stands in the encrypted stream, strips
/// one layer of emulation prevention, then decrypts the blocks at the offsets
/// computed on the stripped length, one CBC chain per NAL unit from the IV.
/// The result is the original access unit byte for byte. This is the reading
/// of FFmpeg's hls demuxer, the decryptor hlspack's tests check against;
/// `hlspack verify` decrypts with it.
///
/// One instance per key and per thread.
final class H264SampleDecryptor {
  private let cipher: SampleAESCipher

  /// - Parameter key: the 16-byte content key.
  init(key: [UInt8]) throws {
    cipher = try SampleAESCipher(key: key, encrypt: false)
  }

  /// Returns the clear access unit (a new array).
  /// - Parameters:
  ///   - accessUnit: one encrypted Annex B access unit (a whole PES payload).
  ///   - iv: the segment's 16-byte IV.
  func decrypt(accessUnit: [UInt8], iv: [UInt8]) throws -> [UInt8] {
    try accessUnit.withUnsafeBufferPointer { try decrypt(accessUnit: $0, iv: iv) }
  }

  /// The same, reading the access unit where it lies.
  func decrypt(accessUnit: UnsafeBufferPointer<UInt8>, iv: [UInt8]) throws -> [UInt8] {
    try SampleAESCipher.withIV(iv) { iv in
      // The encryptor escaped exactly the NAL units it encrypted, and those
      // were longer than 48 bytes before escaping, so longer after it too.
      try SampleAESNALWalk.rewrite(accessUnit, capacity: accessUnit.count) { nal, out in
        let start = out.count
        AnnexB.appendUnescaped(nal, to: &out)
        let offsets = SampleAESLayout.videoBlocks(nalLength: out.count - start)
        try cipher.restart(iv: iv)
        try out.withUnsafeMutableBufferPointer { buffer in
          guard let base = buffer.baseAddress else { return }
          // The context carries the chain from one block to the next.
          for offset in offsets { try cipher.crypt(base + start + offset, count: 16) }
        }
      }
    }
  }
}
