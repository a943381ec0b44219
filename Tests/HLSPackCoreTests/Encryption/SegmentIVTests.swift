import Testing

@testable import HLSPackCore

/// RFC 8216 §5.2: the media sequence number as a 128-bit big-endian integer.
@Suite struct SegmentIVTests {
  @Test(arguments: [
    (UInt64(0), "00000000000000000000000000000000"),
    (1, "00000000000000000000000000000001"),
    (10, "0000000000000000000000000000000a"),
    (0x0102, "00000000000000000000000000000102"),
    (0x0102_0304_0506_0708, "00000000000000000102030405060708"),
    (UInt64.max, "0000000000000000ffffffffffffffff"),
  ])
  func sequenceIV(sequence: UInt64, expected: String) {
    let iv = SegmentIV.sequence(sequence)
    #expect(iv.count == 16)
    #expect(Hex.encode(iv) == expected)
  }

  @Test func annotatedBytesForTen() {
    #expect(
      SegmentIV.sequence(10) == [
        0x00, 0x00, 0x00, 0x00,  // bits 127–96: always zero
        0x00, 0x00, 0x00, 0x00,  // bits 95–64: always zero (the number is 64-bit)
        0x00, 0x00, 0x00, 0x00,  // bits 63–32 of the sequence number
        0x00, 0x00, 0x00, 0x0A,  // bits 31–0: 10, last byte
      ])
  }
}
