/// Reads the RBSP bits of one NAL unit as they stand in the stream: an
/// emulation-prevention byte (the `03` of `00 00 03`) is skipped when it is
/// loaded, but counted, so `consumedBytes` measures escaped bytes, which is
/// what a `cbcs` clear region is made of (ISO/IEC 23001-7, subsample encryption).
///
/// Every read names its syntax element, and every failure names it too.
struct NALBitReader {
  /// The syntax structure being read, e.g. "H.264 slice header".
  let structure: String
  private let bytes: [UInt8]
  private let start: Int
  private let end: Int
  private var next: Int
  private var zeros = 0
  private var cache: UInt32 = 0
  private var cacheBits = 0

  /// Reads `range` of `bytes`, which starts right after the NAL unit header.
  init(_ bytes: [UInt8], _ range: Range<Int>, structure: String) {
    self.bytes = bytes
    self.structure = structure
    start = range.lowerBound
    end = range.upperBound
    next = range.lowerBound
  }

  /// Escaped bytes loaded so far, the byte holding the last bit read included.
  var consumedBytes: Int { next - start }

  var isByteAligned: Bool { cacheBits == 0 }

  private mutating func load(_ field: String) throws {
    guard next < end else { throw malformed(field, "the NAL unit ends inside this field") }
    var byte = bytes[next]
    next += 1
    if zeros >= 2, byte == 3 {
      guard next < end else { throw malformed(field, "the NAL unit ends after an emulation-prevention byte") }
      byte = bytes[next]
      next += 1
      zeros = 0
    }
    zeros = byte == 0 ? zeros + 1 : 0
    cache = UInt32(byte)
    cacheBits = 8
  }

  mutating func bit(_ field: String) throws -> Bool {
    if cacheBits == 0 { try load(field) }
    cacheBits -= 1
    return (cache >> UInt32(cacheBits)) & 1 == 1
  }

  /// u(n), n ≤ 32.
  mutating func bits(_ n: Int, _ field: String) throws -> UInt32 {
    precondition(n >= 0 && n <= 32)
    var value: UInt64 = 0
    var left = n
    while left > 0 {
      if cacheBits == 0 { try load(field) }
      let take = min(left, cacheBits)
      let chunk = (cache >> UInt32(cacheBits - take)) & ((1 << UInt32(take)) - 1)
      value = value << UInt64(take) | UInt64(chunk)
      cacheBits -= take
      left -= take
    }
    return UInt32(value)
  }

  /// Skips `n` bits (any number).
  mutating func skip(_ n: Int, _ field: String) throws {
    var left = n
    while left > 0 {
      let step = min(left, 32)
      _ = try bits(step, field)
      left -= step
    }
  }

  /// ue(v): unsigned Exp-Golomb, up to 2^32 − 2.
  mutating func ue(_ field: String) throws -> UInt32 {
    var leadingZeros = 0
    while try !bit(field) {
      leadingZeros += 1
      guard leadingZeros < 32 else { throw malformed(field, "Exp-Golomb code longer than 32 bits") }
    }
    let suffix = try bits(leadingZeros, field)
    return UInt32((UInt64(1) << UInt64(leadingZeros)) - 1 + UInt64(suffix))
  }

  /// ue(v) that must not exceed `limit` (the semantics' range), as an Int.
  mutating func ue(_ field: String, max limit: Int) throws -> Int {
    let value = Int(try ue(field))
    guard value <= limit else { throw malformed(field, "\(value) is out of range 0…\(limit)") }
    return value
  }

  /// se(v): signed Exp-Golomb.
  mutating func se(_ field: String) throws -> Int {
    let k = Int(try ue(field))
    return k & 1 == 1 ? (k + 1) / 2 : -(k / 2)
  }

  /// byte_alignment() of H.265: one bit equal to 1, then zero bits to the byte boundary.
  mutating func byteAlignment(_ field: String) throws {
    guard try bit(field) else { throw malformed(field, "alignment_bit_equal_to_one is 0: the header was misread") }
    while !isByteAligned {
      guard try !bit(field) else { throw malformed(field, "alignment_bit_equal_to_zero is 1: the header was misread") }
    }
  }

  func malformed(_ field: String, _ reason: String) -> MediaFormatError {
    .malformedBitstream(where: "\(structure): \(field)", reason: reason)
  }

  func unsupported(_ field: String, _ reason: String) -> MediaFormatError {
    .unsupportedBitstream(where: "\(structure): \(field)", reason: reason)
  }
}

/// Ceil(Log2(n)) for n ≥ 1: the width of u(v) fields that index n things.
func ceilLog2(_ n: Int) -> Int {
  var bits = 0
  while (1 << bits) < n { bits += 1 }
  return bits
}
