/// Reads back-to-back AC-3 and E-AC-3 syncframes for `hlspack verify`: which
/// of the two each is, its sample rate and how many samples it codes. Both
/// open with the syncword 0x0B77 and keep bsid in the same five bits (ATSC
/// A/52 §5.3.2 and Annex E §E.1.2.2): up to 10 is AC-3, 11–16 E-AC-3, whose
/// frame size is its own frmsiz field rather than a table lookup.
public enum DolbySyncFrames {
  public struct Frame: Sendable, Equatable {
    public var range: Range<Int>
    public var enhanced: Bool
    public var sampleRate: Int
    public var samples: Int
    /// The RFC 6381 / HLS codec name: `ac-3` or `ec-3`.
    public var codec: String { enhanced ? "ec-3" : "ac-3" }
  }

  public static func forEach(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Frame) throws -> Void) throws {
    var offset = 0
    while offset < bytes.count {
      let frame = try read(UnsafeBufferPointer(rebasing: bytes[offset...]), offset: offset)
      try body(frame)
      offset = frame.range.upperBound
    }
  }

  static func read(_ bytes: UnsafeBufferPointer<UInt8>, offset: Int) throws -> Frame {
    guard bytes.count >= 6 else {
      throw FramingError.ac3(offset: offset, reason: "\(bytes.count) bytes left, syncinfo and bsid need 6")
    }
    let bsid = Int(bytes[5] >> 3)
    guard bsid > 10 else {
      let size = try AC3SyncFrames.frameSize(bytes, offset: offset)
      let rate = [48_000, 44_100, 32_000][Int(bytes[4] >> 6)]
      return Frame(range: offset..<offset + size, enhanced: false, sampleRate: rate, samples: 1536)
    }
    guard bytes[0] == 0x0B, bytes[1] == 0x77 else {
      throw FramingError.ac3(offset: offset, reason: "no syncword 0x0B77")
    }
    guard bsid <= 16 else { throw FramingError.ac3(offset: offset, reason: "bsid \(bsid) is neither AC-3 nor E-AC-3") }
    // strmtyp (2), substreamid (3), frmsiz (11): words per frame minus one.
    let size = 2 * ((Int(bytes[2] & 0x07) << 8 | Int(bytes[3])) + 1)
    guard size <= bytes.count else {
      throw FramingError.ac3(offset: offset, reason: "frame size \(size) runs past the end (\(bytes.count) bytes left)")
    }
    // fscod (2), then numblkscod (2), or fscod2 when fscod is 3 (six blocks at half the rate).
    let fscod = Int(bytes[4] >> 6), second = Int(bytes[4] >> 4 & 0x03)
    let rate = fscod == 3 ? [24_000, 22_050, 16_000, 0][second] : [48_000, 44_100, 32_000][fscod]
    let blocks = fscod == 3 ? 6 : [1, 2, 3, 6][second]
    guard rate > 0 else { throw FramingError.ac3(offset: offset, reason: "reserved fscod2 3") }
    return Frame(range: offset..<offset + size, enhanced: true, sampleRate: rate, samples: 256 * blocks)
  }
}
