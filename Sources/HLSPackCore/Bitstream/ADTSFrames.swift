/// Delimits back-to-back ADTS frames (ISO/IEC 14496-3 1.A.2). Only what SAMPLE-AES
/// needs: where each frame ends and how long its header is.
public enum ADTSFrames {
  /// Calls `body` with each frame's range and header length (7 bytes, or 9
  /// when protection_absent is 0 and a CRC follows the fixed header).
  public static func forEach(
    in bytes: UnsafeBufferPointer<UInt8>, _ body: (_ frame: Range<Int>, _ header: Int) throws -> Void
  ) throws {
    var offset = 0
    while offset < bytes.count {
      let left = bytes.count - offset
      guard left >= 7 else { throw FramingError.adts(offset: offset, reason: "\(left) bytes left, a header needs 7") }
      let b = UnsafeBufferPointer(rebasing: bytes[offset..<offset + 7])
      guard b[0] == 0xFF, b[1] & 0xF0 == 0xF0 else {
        throw FramingError.adts(offset: offset, reason: "no syncword 0xFFF")
      }
      let header = b[1] & 0x01 == 1 ? 7 : 9
      let length = Int(b[3] & 0x03) << 11 | Int(b[4]) << 3 | Int(b[5]) >> 5
      guard length >= header else {
        throw FramingError.adts(
          offset: offset, reason: "frame_length \(length) is shorter than its \(header)-byte header")
      }
      guard length <= left else {
        throw FramingError.adts(offset: offset, reason: "frame_length \(length) runs past the end (\(left) bytes left)")
      }
      try body(offset..<offset + length, header)
      offset += length
    }
  }
}
