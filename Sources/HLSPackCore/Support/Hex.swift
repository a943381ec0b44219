/// Bytes as hex digits and back: key ids, keys, IVs and digests in files, playlists and messages.
public enum Hex {
  public static func encode(_ bytes: [UInt8], uppercase: Bool = false) -> String {
    let digits = Array(uppercase ? "0123456789ABCDEF" : "0123456789abcdef")
    var s = ""
    s.reserveCapacity(bytes.count * 2)
    for b in bytes {
      s.append(digits[Int(b >> 4)])
      s.append(digits[Int(b & 0x0F)])
    }
    return s
  }

  /// Decodes hex digits (an optional 0x prefix is allowed); nil on anything else.
  public static func decode(_ text: String) -> [UInt8]? {
    var s = Substring(text)
    if s.hasPrefix("0x") || s.hasPrefix("0X") { s = s.dropFirst(2) }
    // UInt8(_:radix:) would accept a sign ("+f"); only hex digits are hex.
    guard s.count % 2 == 0, s.allSatisfy(\.isHexDigit) else { return nil }
    var out: [UInt8] = []
    var index = s.startIndex
    while index < s.endIndex {
      let next = s.index(index, offsetBy: 2)
      guard let byte = UInt8(s[index..<next], radix: 16) else { return nil }
      out.append(byte)
      index = next
    }
    return out
  }
}
