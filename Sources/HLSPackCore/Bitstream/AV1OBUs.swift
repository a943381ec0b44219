/// The open bitstream units of AV1 in the low-overhead format (AV1
/// specification §5.2, §5.3: every OBU has `obu_has_size_field` set), as
/// FFmpeg's encoders write them into extradata and MP4 samples, and as an
/// `av1C` box's configOBUs hold them (AV1 Codec ISO Media File Format
/// Binding §2.3).
public enum AV1OBUs {
  /// obu_type 1 (§6.2.2).
  static let sequenceHeaderType: UInt8 = 1

  /// The OBUs of `bytes`, each as its type and its payload's range; nil when
  /// an OBU header or size runs past the bytes, or an OBU has no size field.
  static func units(_ bytes: [UInt8]) -> [(type: UInt8, payload: Range<Int>)]? {
    var found: [(type: UInt8, payload: Range<Int>)] = []
    var at = 0
    while at < bytes.count {
      let header = bytes[at]
      // obu_forbidden_bit, obu_type (4), obu_extension_flag, obu_has_size_field, reserved.
      guard header & 0x80 == 0, header & 0x02 != 0 else { return nil }
      let type = (header >> 3) & 0x0F
      at += header & 0x04 != 0 ? 2 : 1
      guard let (size, length) = leb128(bytes, at) else { return nil }
      at += length
      guard size <= bytes.count - at else { return nil }
      found.append((type, at..<(at + size)))
      at += size
    }
    return found
  }

  /// The first sequence header among `bytes`' OBUs, parsed.
  public static func sequenceHeader(in bytes: [UInt8]) -> AV1SequenceHeader? {
    guard let unit = units(bytes)?.first(where: { $0.type == sequenceHeaderType }) else { return nil }
    return try? AV1SequenceHeader(Array(bytes[unit.payload]))
  }

  /// leb128() (§4.10.5): at most 8 bytes, a value below 2^32.
  static func leb128(_ bytes: [UInt8], _ start: Int) -> (value: Int, length: Int)? {
    var value = 0
    for i in 0..<8 {
      guard start + i < bytes.count else { return nil }
      let byte = bytes[start + i]
      value |= Int(byte & 0x7F) << (7 * i)
      if byte & 0x80 == 0 { return value <= Int(UInt32.max) ? (value, i + 1) : nil }
    }
    return nil
  }
}

/// The `av1C` box's payload (AV1 Codec ISO Media File Format Binding §2.3.3):
/// the fixed fields that repeat the sequence header (those a codec string
/// names are read), then its configOBUs.
public struct AV1CodecConfiguration: Equatable, Sendable {
  public var profile: Int
  public var levelIndex: Int
  public var tier: Int
  public var bitDepth: Int
  /// The sequence header among the configOBUs, if there is one.
  public var sequenceHeader: AV1SequenceHeader?

  public init(_ payload: [UInt8]) throws {
    // marker (1) = 1, version (7) = 1.
    guard payload.count >= 4, payload[0] == 0x81 else {
      throw MediaFormatError.malformedBox("av1C: expected marker 1 and version 1 in its first of \(payload.count) bytes")
    }
    profile = Int(payload[1] >> 5)
    levelIndex = Int(payload[1] & 0x1F)
    tier = Int(payload[2] >> 7)
    let highBitDepth = payload[2] & 0x40 != 0
    let twelveBit = payload[2] & 0x20 != 0
    bitDepth = profile == 2 && highBitDepth ? (twelveBit ? 12 : 10) : (highBitDepth ? 10 : 8)
    sequenceHeader = AV1OBUs.sequenceHeader(in: Array(payload[4...]))
  }

  /// `av01.P.LLT.DD` from the fixed fields, for an av1C without a sequence header.
  public var codecString: String {
    let level = levelIndex < 10 ? "0\(levelIndex)" : String(levelIndex)
    return "av01.\(profile).\(level)\(tier == 0 ? "M" : "H").\(bitDepth < 10 ? "0" : "")\(bitDepth)"
  }
}
