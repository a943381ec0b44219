/// Builds box bytes: fields are appended big-endian and `box(_:_:)` wraps a
/// payload in its size and type.
struct BoxWriter {
  private(set) var bytes: [UInt8] = []

  mutating func u8(_ v: UInt8) { bytes.append(v) }

  mutating func u16(_ v: UInt16) {
    bytes.append(UInt8(truncatingIfNeeded: v >> 8))
    bytes.append(UInt8(truncatingIfNeeded: v))
  }

  mutating func u24(_ v: UInt32) {
    bytes.append(UInt8(truncatingIfNeeded: v >> 16))
    bytes.append(UInt8(truncatingIfNeeded: v >> 8))
    bytes.append(UInt8(truncatingIfNeeded: v))
  }

  mutating func u32(_ v: UInt32) {
    u16(UInt16(truncatingIfNeeded: v >> 16))
    u16(UInt16(truncatingIfNeeded: v))
  }

  mutating func fourCC(_ code: String) {
    precondition(code.utf8.count == 4, "a box type has four characters")
    bytes.append(contentsOf: code.utf8)
  }

  mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }

  /// A full box header's version and flags.
  mutating func versionAndFlags(_ version: UInt8, _ flags: UInt32) {
    u8(version)
    u24(flags)
  }

  /// `payload` as a box of `type` (32-bit size).
  static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    var w = BoxWriter()
    w.u32(UInt32(8 + payload.count))
    w.fourCC(type)
    w.append(payload)
    return w.bytes
  }
}
