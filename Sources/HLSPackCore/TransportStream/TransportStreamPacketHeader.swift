/// The fields of an MPEG-TS packet header that several readers need
/// (ISO/IEC 13818-1 §2.4.3.2).
public enum TransportStreamPacketHeader {
  /// The 13-bit PID of the packet whose sync byte is at `offset`.
  @inlinable
  public static func pid<Bytes: RandomAccessCollection>(_ bytes: Bytes, at offset: Int) -> UInt16
  where Bytes.Element == UInt8, Bytes.Index == Int {
    UInt16(bytes[offset + 1] & 0x1F) << 8 | UInt16(bytes[offset + 2])
  }
}
