import HLSPackCrypto

@testable import HLSPack

/// Undoes `AC3SampleEncryptor`: decrypts the same blocks of each syncframe,
/// one CBC chain per syncframe from the IV. The syncinfo lies in the clear
/// leader, so encrypted frames split exactly as clear ones do.
///
/// One instance per key and per thread.
final class AC3SampleDecryptor {
  private let frames: AudioFrameCipher

  /// - Parameter key: the 16-byte content key.
  init(key: [UInt8]) throws {
    frames = try AudioFrameCipher(key: key, encrypt: false)
  }

  /// Returns the clear syncframes (a new array of the same size).
  func decrypt(syncFrames: [UInt8], iv: [UInt8]) throws -> [UInt8] {
    try frames.processed(syncFrames, framing: .ac3, iv: iv)
  }

  /// `decrypt(syncFrames:iv:)` on a buffer the caller owns.
  func decryptInPlace(syncFrames: UnsafeMutableBufferPointer<UInt8>, iv: [UInt8]) throws {
    try frames.process(syncFrames, framing: .ac3, iv: iv)
  }
}
