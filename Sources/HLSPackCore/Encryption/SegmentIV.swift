/// The IV of a segment.
public enum SegmentIV {
  /// RFC 8216 §5.2: with no IV attribute, the media sequence number as a
  /// 128-bit big-endian integer.
  public static func sequence(_ mediaSequenceNumber: UInt64) -> [UInt8] {
    var iv = [UInt8](repeating: 0, count: 16)
    for i in 0..<8 { iv[15 - i] = UInt8(truncatingIfNeeded: mediaSequenceNumber >> (8 * UInt64(i))) }
    return iv
  }
}
