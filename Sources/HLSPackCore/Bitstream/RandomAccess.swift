/// Whether a coded picture can open a segment that decodes on its own
/// (Apple HLS Authoring Spec 7.4, EXT-X-INDEPENDENT-SEGMENTS). Encoders with open GOPs mark
/// pictures as keyframes that are not: an H.264 I picture with a recovery
/// point, whose followers refer back past it, or an HEVC CRA followed by RASL
/// pictures that refer to the previous GOP.
public enum RandomAccess {
  public enum Opening: Equatable {
    /// IDR (H.264 type 5; HEVC IDR or BLA, whose leading pictures decoders drop).
    case independent
    /// HEVC CRA: independent unless RASL pictures follow it.
    case cleanRandomAccess
    case dependent
  }

  public static func opening(nalTypes: [UInt8], hevc: Bool) -> Opening {
    if hevc {
      if nalTypes.contains(where: { (16...20).contains($0) }) { return .independent }
      return nalTypes.contains(21) ? .cleanRandomAccess : .dependent
    }
    return nalTypes.contains(5) ? .independent : .dependent
  }

  /// HEVC RASL_N / RASL_R: decodable only with the previous GOP.
  public static func isSkippedLeading(nalTypes: [UInt8], hevc: Bool) -> Bool {
    hevc && nalTypes.contains { $0 == 8 || $0 == 9 }
  }

  /// The NAL unit types of one access unit: Annex B when `lengthSize` is nil,
  /// else NAL units each preceded by a big-endian length of that many bytes.
  public static func nalTypes(_ bytes: [UInt8], lengthSize: Int?, hevc: Bool) -> [UInt8] {
    nalUnits(bytes, lengthSize: lengthSize).compactMap { $0.first.map { nalType(header: $0, hevc: hevc) } }
  }

  /// The NAL units of one access unit, as `nalTypes` reads them; a length
  /// that runs past the end stops the reading.
  public static func nalUnits(_ bytes: [UInt8], lengthSize: Int?) -> [ArraySlice<UInt8>] {
    guard let lengthSize else { return AnnexB.nalUnits(in: bytes) }
    var units: [ArraySlice<UInt8>] = []
    var offset = 0
    while offset + lengthSize < bytes.count {
      let length = bytes[offset..<(offset + lengthSize)].reduce(0) { $0 << 8 | Int($1) }
      offset += lengthSize
      guard length > 0, offset + length <= bytes.count else { break }
      units.append(bytes[offset..<(offset + length)])
      offset += length
    }
    return units
  }

  /// The type in a NAL unit's first header byte.
  public static func nalType(header: UInt8, hevc: Bool) -> UInt8 { hevc ? (header >> 1) & 0x3F : header & 0x1F }

  /// The NAL length size an avcC/hvcC record declares; nil for Annex B
  /// extradata (or none), whose packets carry start codes.
  public static func lengthSize(configuration: [UInt8], hevc: Bool) -> Int? {
    guard configuration.first == 1 else { return nil }
    let configurationRecord =
      try? (hevc ? DecoderConfiguration.hevc(configuration) : DecoderConfiguration.avc(configuration))
    return configurationRecord?.nalLengthSize
  }
}
