/// The parameter sets and access unit delimiters a copied stream carries in
/// its samples (MPEG-TS sources always do). In fMP4 the sample entry is
/// `hvc1` or `avc1`, whose record holds every parameter set: for `hvc1`,
/// ISO/IEC 14496-15 §8.4.1 has `array_completeness` 1, which means none are
/// in the samples (conformance C7). So they leave the samples, as Shaka
/// Packager takes them out; one the record does not hold would be lost with
/// them, so it stops the run instead.
public struct InBandParameterSets: Sendable {
  public let hevc: Bool
  /// The NAL length size of the samples; nil for Annex B.
  public let lengthSize: Int?
  private let recorded: Set<[UInt8]>

  /// `configuration`: the stream's avcC/hvcC record or Annex B parameter sets.
  public init(configuration: [UInt8], hevc: Bool) throws {
    self.hevc = hevc
    lengthSize = RandomAccess.lengthSize(configuration: configuration, hevc: hevc)
    let units: [[UInt8]]
    if configuration.first == 1 {
      units = try (hevc ? DecoderConfiguration.hevc(configuration) : DecoderConfiguration.avc(configuration)).parameterSets
    } else {
      units = AnnexB.nalUnits(in: configuration).map(Array.init)
    }
    recorded = Set(units)
  }

  /// NAL unit types that leave the samples: HEVC VPS, SPS, PPS and AUD; H.264 SPS, PPS and AUD.
  public var removedTypes: [Int] { hevc ? [32, 33, 34, 35] : [7, 8, 9] }

  private var parameterSetTypes: [Int] { hevc ? [32, 33, 34] : [7, 8] }

  /// The NAL type of the first parameter set in `sample` that the record
  /// does not hold (a stream that changes its parameter sets), or nil.
  public func unrecorded(in sample: [UInt8]) -> Int? {
    for unit in Self.nalUnits(sample, lengthSize: lengthSize) {
      guard let header = unit.first else { continue }
      let type = Int(hevc ? (header >> 1) & 0x3F : header & 0x1F)
      if parameterSetTypes.contains(type), !recorded.contains(Array(unit)) { return type }
    }
    return nil
  }

  static func nalUnits(_ bytes: [UInt8], lengthSize: Int?) -> [ArraySlice<UInt8>] {
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

  /// An hvcC record with `array_completeness` set on its VPS, SPS and PPS
  /// arrays, as `hvc1` requires once the samples carry none; other records
  /// (avcC has no such flag, Annex B is made into a record by the muxer) as they are.
  public static func completeHVCC(_ record: [UInt8]) -> [UInt8] {
    guard record.count > 23, record[0] == 1 else { return record }
    var bytes = record
    var offset = 23
    for _ in 0..<Int(record[22]) {
      guard offset + 3 <= bytes.count else { return record }
      if [32, 33, 34].contains(Int(bytes[offset] & 0x3F)) { bytes[offset] |= 0x80 }
      let count = Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
      offset += 3
      for _ in 0..<count {
        guard offset + 2 <= bytes.count else { return record }
        offset += 2 + (Int(bytes[offset]) << 8 | Int(bytes[offset + 1]))
      }
    }
    return offset == bytes.count ? bytes : record
  }
}
