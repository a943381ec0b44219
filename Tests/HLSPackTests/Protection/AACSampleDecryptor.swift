import HLSPackCrypto

@testable import HLSPack

/// Undoes `AACSampleEncryptor`: decrypts the same blocks of each raw AAC or
/// ADTS frame, one CBC chain per frame from the IV.
///
/// One instance per key and per thread.
final class AACSampleDecryptor {
  private let frames: AudioFrameCipher

  /// - Parameter key: the 16-byte content key.
  init(key: [UInt8]) throws {
    frames = try AudioFrameCipher(key: key, encrypt: false)
  }

  /// Decrypts one raw AAC access unit (leader = raw bytes 0–15).
  func decrypt(rawFrame: [UInt8], iv: [UInt8]) throws -> [UInt8] {
    try frames.processed(rawFrame, framing: .rawAAC, iv: iv)
  }

  /// Decrypts one or more back-to-back ADTS frames, restarting from `iv` at each.
  func decrypt(adtsFrames: [UInt8], iv: [UInt8]) throws -> [UInt8] {
    try frames.processed(adtsFrames, framing: .adts, iv: iv)
  }

  /// `decrypt(rawFrame:iv:)` on a buffer the caller owns.
  func decryptInPlace(rawFrame: UnsafeMutableBufferPointer<UInt8>, iv: [UInt8]) throws {
    try frames.process(rawFrame, framing: .rawAAC, iv: iv)
  }

  /// `decrypt(adtsFrames:iv:)` on a buffer the caller owns.
  func decryptInPlace(adtsFrames: UnsafeMutableBufferPointer<UInt8>, iv: [UInt8]) throws {
    try frames.process(adtsFrames, framing: .adts, iv: iv)
  }
}
