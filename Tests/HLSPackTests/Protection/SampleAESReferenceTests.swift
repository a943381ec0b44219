import HLSPackCrypto
import HLSPackTestSupport
import Testing

/// An independent reading of the SAMPLE-AES rules (Apple MPEG-2 Stream Encryption §2.2, §2.3),
/// written from the document rather than from the product: its own NAL
/// splitter, the tests' own escaping (EmulationPrevention), the Apple pseudo-code loop for the block
/// offsets, and one gathered CBC run per NAL unit or frame through the
/// existing `AES128CBC`. The product's encryptor output must decrypt with it,
/// which guards against mistakes that an encryptor and decryptor sharing code
/// would make symmetrically.
enum SampleAESReference {
  /// Apple's loop: 32 clear, then while bytes remain: a block if more than 16
  /// remain, then min(144, remaining) clear.
  static func videoBlockOffsets(nalLength: Int) -> [Int] {
    guard nalLength > 48 else { return [] }
    var offsets: [Int] = []
    var position = 32
    var remaining = nalLength - 32
    while remaining > 0 {
      if remaining > 16 {
        offsets.append(position)
        position += 16
        remaining -= 16
      }
      let skip = min(144, remaining)
      position += skip
      remaining -= skip
    }
    return offsets
  }

  /// Encrypted range of an audio frame: header, 16 clear, then blocks while 16 or more remain.
  static func audioBlocks(frameLength: Int, header: Int) -> Range<Int> {
    var end = header + 16
    while frameLength - end >= 16 { end += 16 }
    return (header + 16)..<end
  }

  /// True when `bytes` contains 00 00 00, 00 00 01 or 00 00 02.
  static func hasForbiddenPattern(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 3 && (0..<bytes.count - 2).contains { bytes[$0] == 0 && bytes[$0 + 1] == 0 && bytes[$0 + 2] <= 2 }
  }

  struct Unit {
    /// Bytes before the NAL unit since the previous one: zeros and start code.
    var prefix: [UInt8]
    var nal: [UInt8]
  }

  /// Splits on 00 00 01; zeros before a start code belong to the prefix of the next unit.
  static func split(_ au: [UInt8]) -> (units: [Unit], trailer: [UInt8]) {
    var starts: [Int] = []
    var i = 0
    while i + 3 <= au.count {
      if au[i] == 0, au[i + 1] == 0, au[i + 2] == 1 {
        starts.append(i)
        i += 3
      } else {
        i += 1
      }
    }
    var units: [Unit] = []
    var prefixStart = 0
    for (n, start) in starts.enumerated() {
      let payload = start + 3
      var end = n + 1 < starts.count ? starts[n + 1] : au.count
      while end > payload, au[end - 1] == 0 { end -= 1 }
      units.append(Unit(prefix: Array(au[prefixStart..<payload]), nal: Array(au[payload..<end])))
      prefixStart = end
    }
    return (units, Array(au[prefixStart...]))
  }

  static func isEncryptedSlice(_ nal: [UInt8]) -> Bool {
    guard let header = nal.first else { return false }
    return (header & 0x1F == 1 || header & 0x1F == 5) && nal.count > 48
  }

  /// Decrypts one NAL unit as it appears in the encrypted stream.
  static func decryptNAL(_ escaped: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
    var nal = EmulationPrevention.removed(escaped)
    let offsets = videoBlockOffsets(nalLength: nal.count)
    guard !offsets.isEmpty else { return nal }
    let gathered = offsets.flatMap { nal[$0..<$0 + 16] }
    let clear = try AES128CBC().decryptBlocks(gathered, key: key, iv: iv)
    for (k, offset) in offsets.enumerated() { nal[offset..<offset + 16] = clear[16 * k..<16 * k + 16] }
    return nal
  }

  static func decryptAccessUnit(_ au: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
    let (units, trailer) = split(au)
    var out: [UInt8] = []
    for unit in units {
      out += unit.prefix
      out += isEncryptedSlice(unit.nal) ? try decryptNAL(unit.nal, key: key, iv: iv) : unit.nal
    }
    return out + trailer
  }

  static func decryptAudioFrame(_ frame: [UInt8], header: Int, key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
    let range = audioBlocks(frameLength: frame.count, header: header)
    guard !range.isEmpty else { return frame }
    var out = frame
    out[range] = try AES128CBC().decryptBlocks(Array(frame[range]), key: key, iv: iv)[...]
    return out
  }
}

/// The reference itself, checked against the worked examples, so that the
/// product tests lean on something known to be right.
@Suite struct SampleAESReferenceTests {
  @Test func videoOffsetsFollowTheWorkedExample() {
    #expect(SampleAESReference.videoBlockOffsets(nalLength: 400) == [32, 192, 352])
    #expect(SampleAESReference.videoBlockOffsets(nalLength: 48) == [])
    #expect(SampleAESReference.videoBlockOffsets(nalLength: 49) == [32])
    #expect(SampleAESReference.videoBlockOffsets(nalLength: 208) == [32])
    #expect(SampleAESReference.videoBlockOffsets(nalLength: 209) == [32, 192])
    #expect(SampleAESReference.videoBlockOffsets(nalLength: 368) == [32, 192])
  }

  @Test func audioRangesFollowTheWorkedExample() {
    #expect(SampleAESReference.audioBlocks(frameLength: 371, header: 7) == 23..<359)
    #expect(SampleAESReference.audioBlocks(frameLength: 371, header: 9) == 25..<361)
    #expect(SampleAESReference.audioBlocks(frameLength: 38, header: 7).isEmpty)
    #expect(SampleAESReference.audioBlocks(frameLength: 768, header: 0) == 16..<768)
  }

  @Test func escapingRoundTrips() {
    let raw: [UInt8] = [0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0]
    let escaped = EmulationPrevention.inserted(raw)
    #expect(escaped == [0, 0, 3, 0, 0, 3, 1, 0, 0, 3, 2, 0, 0, 3, 3, 0, 0])
    #expect(EmulationPrevention.removed(escaped) == raw)
  }

  @Test func splitKeepsStartCodesAndZerosOutsideUnits() {
    let au: [UInt8] = [0, 0, 0, 1, 9, 0xF0, 0, 0, 0, 1, 0x67, 0x42, 0, 0, 1, 0x68, 0xCE, 0]
    let (units, trailer) = SampleAESReference.split(au)
    #expect(units.map(\.nal) == [[9, 0xF0], [0x67, 0x42], [0x68, 0xCE]])
    #expect(units.map(\.prefix) == [[0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 1]])
    #expect(trailer == [0])
  }
}
