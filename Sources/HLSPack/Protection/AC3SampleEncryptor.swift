import HLSPackCore
import HLSPackCrypto

/// SAMPLE-AES encryption of AC-3 for MPEG-TS (Apple MPEG-2 Stream Encryption §2.3.3).
///
/// The input is one or more whole syncframes back to back (a packet or PES
/// payload), split on the frame size from each syncinfo. Per syncframe: bytes
/// [0,16) clear, then every whole 16-byte block, the tail clear; one CBC chain
/// per syncframe from `iv`. E-AC-3 (bsid > 10) is refused.
///
/// One instance per key and per thread.
final class AC3SampleEncryptor {
  private let frames: AudioFrameCipher

  /// - Parameter key: the 16-byte content key.
  init(key: [UInt8]) throws {
    frames = try AudioFrameCipher(key: key, encrypt: true)
  }

  /// Returns the encrypted syncframes (a new array of the same size).
  /// - Parameters:
  ///   - syncFrames: whole AC-3 syncframes back to back, starting at a syncword.
  ///   - iv: the segment's 16-byte IV; every syncframe restarts from it.
  func encrypt(syncFrames: [UInt8], iv: [UInt8]) throws -> [UInt8] {
    try frames.processed(syncFrames, framing: .ac3, iv: iv)
  }

  /// `encrypt(syncFrames:iv:)` on a buffer the caller owns.
  func encryptInPlace(syncFrames: UnsafeMutableBufferPointer<UInt8>, iv: [UInt8]) throws {
    try frames.process(syncFrames, framing: .ac3, iv: iv)
  }
}
