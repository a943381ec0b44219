/// A `cbcs` encryption pattern (ISO/IEC 23001-7 §9.6, §10.4): in every
/// protected range, `cryptBlocks` 16-byte blocks encrypted, then `skipBlocks`
/// left clear, repeated. 0:0 means every whole block (audio, ISO/IEC 23001-7).
public struct CBCSPattern: Equatable, Sendable {
  public var cryptBlocks: Int
  public var skipBlocks: Int

  public init(cryptBlocks: Int, skipBlocks: Int) {
    self.cryptBlocks = cryptBlocks
    self.skipBlocks = skipBlocks
  }

  /// Video: 1 block in 10 (Apple HLS Authoring Spec 13.7 requires 1:9).
  public static let video = CBCSPattern(cryptBlocks: 1, skipBlocks: 9)
  /// Audio: whole-block full-sample encryption, no pattern.
  public static let audio = CBCSPattern(cryptBlocks: 0, skipBlocks: 0)

  /// The byte ranges of `range` that are encrypted, in chain order (ISO/IEC 23001-7, `cbcs`): from
  /// the range's first byte, `cryptBlocks` blocks when at least that many whole
  /// blocks remain, then up to `skipBlocks` blocks skipped. A final partial
  /// block stays clear. With 0:0, one run of every whole block.
  public func encryptedRuns(in range: Range<Int>) -> [Range<Int>] {
    if cryptBlocks == 0 {
      let whole = range.count / 16 * 16
      return whole == 0 ? [] : [range.lowerBound..<range.lowerBound + whole]
    }
    let crypt = 16 * cryptBlocks, skip = 16 * skipBlocks
    var runs: [Range<Int>] = []
    var offset = range.lowerBound
    while range.upperBound - offset >= crypt {
      runs.append(offset..<offset + crypt)
      offset += crypt + skip
    }
    return runs
  }

  /// The tenc byte: crypt_byte_block in the high nibble, skip_byte_block in the low one.
  var tencByte: UInt8 { UInt8(cryptBlocks << 4 | skipBlocks) }
}
