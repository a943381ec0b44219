import HLSPackCore
import HLSPackCrypto

/// SAMPLE-AES encryption of AAC for MPEG-TS (Apple MPEG-2 Stream Encryption §2.3.2).
///
/// Per frame: 16 clear leader bytes after the ADTS header (if any), then every
/// whole 16-byte block, the 0–15 byte tail clear; one CBC chain per frame from
/// `iv`. A payload under 32 bytes stays clear. Frames keep their size, so the
/// in-place variants can work on a packet's own buffer.
///
/// One instance per key and per thread.
final class AACSampleEncryptor {
  private let frames: AudioFrameCipher

  /// - Parameter key: the 16-byte content key.
  init(key: [UInt8]) throws {
    frames = try AudioFrameCipher(key: key, encrypt: true)
  }

  /// Encrypts one raw AAC access unit, before the TS muxer adds its ADTS header
  /// (the leader is then raw bytes 0–15; the result is the same).
  func encrypt(rawFrame: [UInt8], iv: [UInt8]) throws -> [UInt8] {
    try frames.processed(rawFrame, framing: .rawAAC, iv: iv)
  }

  /// Encrypts one or more back-to-back ADTS frames (header 7 or 9 bytes, from
  /// protection_absent); the chain restarts from `iv` at every frame.
  func encrypt(adtsFrames: [UInt8], iv: [UInt8]) throws -> [UInt8] {
    try frames.processed(adtsFrames, framing: .adts, iv: iv)
  }

  /// `encrypt(rawFrame:iv:)` on a buffer the caller owns (e.g. a packet's data).
  func encryptInPlace(rawFrame: UnsafeMutableBufferPointer<UInt8>, iv: [UInt8]) throws {
    try frames.process(rawFrame, framing: .rawAAC, iv: iv)
  }

  /// `encrypt(adtsFrames:iv:)` on a buffer the caller owns.
  func encryptInPlace(adtsFrames: UnsafeMutableBufferPointer<UInt8>, iv: [UInt8]) throws {
    try frames.process(adtsFrames, framing: .adts, iv: iv)
  }
}
