/// Finds the NAL units of an H.264 Annex B access unit without copying it.
///
/// A NAL unit runs from the byte after a `00 00 01` to the next `00 00 01`,
/// minus any zero bytes before that start code: the leading zero of a 4-byte
/// start code and any trailing_zero_8bits belong to no NAL unit (H.264 B.1,
/// and a NAL unit never ends in 0x00). Everything that is not a NAL unit (start
/// codes, zeros) is copied through unchanged by the callers, so 3- and 4-byte
/// start codes survive as they were.
struct AnnexBScanner {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var nextPayload: Int?

  /// Fails unless the access unit opens with a start code (leading zero bytes
  /// allowed): bytes before it would otherwise pass through clear unnoticed.
  init(_ bytes: UnsafeBufferPointer<UInt8>) throws {
    self.bytes = bytes
    guard let first = Self.startCode(in: bytes, from: 0) else {
      if bytes.isEmpty {
        nextPayload = nil
        return
      }
      throw SampleAESError.missingStartCode
    }
    for i in 0..<first where bytes[i] != 0 { throw SampleAESError.missingStartCode }
    nextPayload = first + 3
  }

  /// The next NAL unit's byte range (never empty), or nil at the end.
  mutating func next() -> Range<Int>? {
    while let start = nextPayload {
      let code = Self.startCode(in: bytes, from: start)
      nextPayload = code.map { $0 + 3 }
      var end = code ?? bytes.count
      while end > start, bytes[end - 1] == 0 { end -= 1 }
      if end > start { return start..<end }
    }
    return nil
  }

  /// Index of the first `00 00 01` at or after `from`.
  static func startCode(in p: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
    var i = from
    // Look at the third byte first: anything above 1 there rules out a start
    // code at i, i+1 and i+2, so most of a slice is skipped three bytes at a time.
    while i + 2 < p.count {
      let third = p[i + 2]
      if third > 1 {
        i += 3
      } else if third == 0 {
        i += 1
      } else {
        if p[i] == 0, p[i + 1] == 0 { return i }
        i += 3
      }
    }
    return nil
  }
}
