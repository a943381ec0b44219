/// CRC-32/MPEG-2, the CRC_32 of PSI sections (ISO 13818-1 Annex A): polynomial
/// 0x04C11DB7, initial value 0xFFFFFFFF, no reflection, no final XOR. Over a
/// whole section including its CRC_32 field the result is 0.
public enum CRC32MPEG2 {
  public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc = crc << 8 ^ table[Int(UInt8(truncatingIfNeeded: crc >> 24) ^ byte)]
    }
    return crc
  }

  /// One entry per value of the top byte, so the loop runs per byte, not per bit.
  private static let table: [UInt32] = (0..<256).map { index in
    var crc = UInt32(index) << 24
    for _ in 0..<8 {
      crc = crc & 0x8000_0000 != 0 ? crc << 1 ^ 0x04C1_1DB7 : crc << 1
    }
    return crc
  }
}
