import HLSPackCore
import HLSPackCrypto

/// The per-frame work behind the AAC and AC-3 encryptors and decryptors, which
/// differ only in direction: in each frame, the whole blocks after the header
/// and the 16-byte leader run through one CBC chain that starts from the IV
/// (Apple MPEG-2 Stream Encryption §2.3). Frames never chain into each other.
final class AudioFrameCipher {
  private let cipher: SampleAESCipher

  init(key: [UInt8], encrypt: Bool) throws {
    cipher = try SampleAESCipher(key: key, encrypt: encrypt)
  }

  enum Framing {
    /// One raw AAC access unit (no ADTS header yet, docs/conformance.md, SAMPLE-AES in MPEG-TS).
    case rawAAC
    /// One or more ADTS frames.
    case adts
    /// One or more AC-3 syncframes.
    case ac3
  }

  func process(_ bytes: UnsafeMutableBufferPointer<UInt8>, framing: Framing, iv: [UInt8]) throws {
    try SampleAESCipher.withIV(iv) { iv in
      let view = UnsafeBufferPointer(bytes)
      switch framing {
      case .rawAAC:
        try process(frame: 0..<bytes.count, header: 0, in: bytes, iv: iv)
      case .adts:
        try ADTSFrames.forEach(in: view) { try process(frame: $0, header: $1, in: bytes, iv: iv) }
      case .ac3:
        try AC3SyncFrames.forEach(in: view) { try process(frame: $0, header: 0, in: bytes, iv: iv) }
      }
    }
  }

  private func process(
    frame: Range<Int>, header: Int, in bytes: UnsafeMutableBufferPointer<UInt8>, iv: UnsafeBufferPointer<UInt8>
  ) throws {
    let blocks = SampleAESLayout.audioBlocks(frameLength: frame.count, header: header)
    guard !blocks.isEmpty, let base = bytes.baseAddress else { return }
    try cipher.restart(iv: iv)
    try cipher.crypt(base + frame.lowerBound + blocks.lowerBound, count: blocks.count)
  }

  /// Copies `bytes`, processes the copy and returns it.
  func processed(_ bytes: [UInt8], framing: Framing, iv: [UInt8]) throws -> [UInt8] {
    var out = bytes
    try out.withUnsafeMutableBufferPointer { try process($0, framing: framing, iv: iv) }
    return out
  }
}
