import HLSPackCrypto
import HLSPackTestSupport

/// A SAMPLE-AES decryptor written in the tests from Apple's rules (Apple MPEG-2 Stream Encryption §2.2,
/// §2.3.2; docs/conformance.md), independent of the product's encryptor: strip one layer of
/// emulation prevention, decrypt the blocks at 32 + 160·k while more than 16
/// bytes remain, one CBC chain per NAL from the IV.
enum SampleAESReference {
  static func decryptNAL(_ nal: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
    var clear = EmulationPrevention.removed(nal)
    guard clear.count > 48 else { return clear }
    var offsets: [Int] = []
    var position = 32
    while position + 16 < clear.count {
      offsets.append(position)
      position += 160
    }
    let blocks = offsets.flatMap { clear[$0..<($0 + 16)] }
    let plain = try AES128CBC().decryptBlocks(blocks, key: key, iv: iv)
    for (i, offset) in offsets.enumerated() {
      clear.replaceSubrange(offset..<(offset + 16), with: plain[(16 * i)..<(16 * i + 16)])
    }
    return clear
  }


  /// NAL units of an Annex B access unit, without start codes or trailing zeros.
  static func nalUnits(_ au: [UInt8]) -> [[UInt8]] {
    var starts: [Int] = []
    var i = 0
    while i + 2 < au.count {
      if au[i] == 0, au[i + 1] == 0, au[i + 2] == 1 {
        starts.append(i + 3)
        i += 3
      } else {
        i += 1
      }
    }
    return starts.enumerated().map { n, start in
      var end = n + 1 < starts.count ? starts[n + 1] - 3 : au.count
      while end > start, au[end - 1] == 0 { end -= 1 }
      return Array(au[start..<end])
    }
  }

  /// AC-3 (Apple MPEG-2 Stream Encryption §2.3.3): per syncframe, 16 bytes clear, then every whole
  /// block, one CBC chain per frame from the IV. Frames are split by the
  /// syncinfo's frame size (48 kHz only: 2 bytes × kbit/s).
  static func decryptAC3(_ payload: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
    let kbps = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 576, 640]
    var out: [UInt8] = []
    var offset = 0
    while offset + 5 <= payload.count, payload[offset] == 0x0B, payload[offset + 1] == 0x77 {
      let code = Int(payload[offset + 4] & 0x3F) / 2
      guard payload[offset + 4] >> 6 == 0, code < kbps.count else { throw FixtureError("only 48 kHz AC-3 is handled") }
      let size = min(kbps[code] * 4, payload.count - offset)
      var frame = Array(payload[offset..<(offset + size)])
      let blocks = (frame.count - 16) / 16 * 16
      if blocks > 0 {
        let plain = try AES128CBC().decryptBlocks(Array(frame[16..<(16 + blocks)]), key: key, iv: iv)
        frame.replaceSubrange(16..<(16 + blocks), with: plain)
      }
      out += frame
      offset += size
    }
    return out + payload[offset...]
  }
}
