import Testing

/// Big-endian fields, as ISO/IEC 14496-12 boxes and MPEG-TS tables store them.
public func be32(_ v: Int) -> [UInt8] {
  [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
}
public func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

public func readBE32<Bytes: Collection<UInt8>>(_ b: Bytes, _ i: Int) -> UInt32 where Bytes.Index == Int {
  UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
}

public func readBE64<Bytes: Collection<UInt8>>(_ b: Bytes, _ i: Int) -> UInt64 where Bytes.Index == Int {
  UInt64(readBE32(b, i)) << 32 | UInt64(readBE32(b, i + 4))
}

/// Bytes from hex digits; whitespace between them is ignored.
public func hex(_ text: String) throws -> [UInt8] {
  let digits = Array(text.filter { !$0.isWhitespace }.utf8)
  try #require(digits.count % 2 == 0, "odd number of hex digits in \(text)")
  return try stride(from: 0, to: digits.count, by: 2).map { i in
    try #require(UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16), "not hex: \(text)")
  }
}

public func hex(_ bytes: [UInt8]) -> String {
  bytes.map { byte in
    let digits = String(byte, radix: 16)
    return byte < 16 ? "0" + digits : digits
  }.joined()
}
