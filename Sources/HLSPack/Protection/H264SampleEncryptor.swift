import HLSPackCore
import HLSPackCrypto

/// SAMPLE-AES encryption of H.264 access units for MPEG-TS (Apple MPEG-2 Stream Encryption §2.2).
///
/// Give it one access unit in Annex B form, as libx264 emits it and the TS
/// muxer writes it, before packetisation (docs/conformance.md, SAMPLE-AES in MPEG-TS). Slice NAL units (types 1 and 5)
/// longer than 48 bytes get 32 clear bytes, then one encrypted 16-byte block
/// every 160 bytes while more than 16 bytes remain; one CBC chain per NAL unit,
/// from `iv`. The NAL bytes are encrypted as they stand in the stream (with
/// their emulation-prevention bytes) and the encrypted NAL unit is then escaped
/// once more as a whole. Start codes and all other NAL units are copied byte
/// for byte.
///
/// One instance per key and per thread: it keeps the key schedule and a block
/// buffer between calls.
final class H264SampleEncryptor {
  private let cipher: SampleAESCipher
  /// The encrypted blocks of the current NAL unit, gathered so that each NAL
  /// unit costs one cipher call; kept between calls to avoid reallocating.
  private var blocks: [UInt8] = []

  /// - Parameter key: the 16-byte content key.
  init(key: [UInt8]) throws {
    cipher = try SampleAESCipher(key: key, encrypt: true)
  }

  /// Returns the encrypted access unit (a new array, usually a few bytes longer
  /// than the input because of emulation prevention).
  /// - Parameters:
  ///   - accessUnit: one Annex B access unit; must open with a start code.
  ///   - iv: the segment's 16-byte IV (the playlist IV, or the one derived from
  ///     the media sequence number); every NAL unit restarts from it.
  func encrypt(accessUnit: [UInt8], iv: [UInt8]) throws -> [UInt8] {
    try accessUnit.withUnsafeBufferPointer { try encrypt(accessUnit: $0, iv: iv) }
  }

  /// The same, reading the access unit where it lies (e.g. a packet's buffer).
  func encrypt(accessUnit: UnsafeBufferPointer<UInt8>, iv: [UInt8]) throws -> [UInt8] {
    try SampleAESCipher.withIV(iv) { iv in
      try SampleAESNALWalk.rewrite(accessUnit, capacity: accessUnit.count + accessUnit.count / 64 + 16) { nal, out in
        try appendEncrypted(nal, iv: iv, to: &out)
      }
    }
  }

  private func appendEncrypted(_ nal: UnsafeBufferPointer<UInt8>, iv: UnsafeBufferPointer<UInt8>, to out: inout [UInt8])
    throws
  {
    let offsets = SampleAESLayout.videoBlocks(nalLength: nal.count)
    blocks.removeAll(keepingCapacity: true)
    for offset in offsets {
      blocks.append(contentsOf: UnsafeBufferPointer(rebasing: nal[offset..<offset + 16]))
    }
    try cipher.restart(iv: iv)
    try blocks.withUnsafeMutableBufferPointer { buffer in
      if let base = buffer.baseAddress { try cipher.crypt(base, count: buffer.count) }
    }
    // Reassemble clear runs and encrypted blocks, escaping the NAL unit as one
    // whole: a zero run may straddle a clear run and a block.
    blocks.withUnsafeBufferPointer { encrypted in
      var zeros = 0
      var clearFrom = 0
      var block = 0
      for offset in offsets {
        AnnexB.appendEscaped(
          UnsafeBufferPointer(rebasing: nal[clearFrom..<offset]), zeros: &zeros, to: &out)
        AnnexB.appendEscaped(
          UnsafeBufferPointer(rebasing: encrypted[block..<block + 16]), zeros: &zeros, to: &out)
        block += 16
        clearFrom = offset + 16
      }
      AnnexB.appendEscaped(UnsafeBufferPointer(rebasing: nal[clearFrom...]), zeros: &zeros, to: &out)
    }
  }
}
