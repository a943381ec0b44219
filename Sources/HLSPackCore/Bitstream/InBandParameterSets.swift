/// The parameter sets and access unit delimiters a copied stream carries in
/// its samples (MPEG-TS sources always do). In fMP4 the sample entry is
/// `hvc1` or `avc1`, whose record holds every parameter set: for `hvc1`,
/// ISO/IEC 14496-15 §8.4.1 has `array_completeness` 1, which means none are
/// in the samples (ISO/IEC 14496-15). So they leave the samples, as Shaka
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
      units = try (hevc ? DecoderConfiguration.hevc(configuration) : DecoderConfiguration.avc(configuration))
        .parameterSets
    } else {
      units = AnnexB.nalUnits(in: configuration).map(Array.init)
    }
    recorded = Set(units)
  }

  /// What a sample needs before it goes into fMP4.
  public enum Inspection: Equatable {
    case unchanged
    /// The sample without its parameter sets and AUDs, each other NAL unit as it was.
    case stripped([UInt8])
    /// It carries a parameter set of this NAL type that the record does not hold.
    case unrecorded(nalType: Int)
  }

  /// Reads the sample's NAL units once: most samples (MP4 sources) carry
  /// nothing to take out and are left as they are, without a copy.
  public func inspect(_ sample: [UInt8]) -> Inspection {
    let units = RandomAccess.nalUnits(sample, lengthSize: lengthSize)
    var kept: [ArraySlice<UInt8>] = []
    for unit in units {
      guard let header = unit.first else { continue }
      let type = Int(RandomAccess.nalType(header: header, hevc: hevc))
      if parameterSetTypes.contains(type), !recorded.contains(Array(unit)) { return .unrecorded(nalType: type) }
      if !removedTypes.contains(type) { kept.append(unit) }
    }
    guard kept.count < units.count else { return .unchanged }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(sample.count)
    for unit in kept {
      if let lengthSize {
        bytes += (0..<lengthSize).reversed().map { UInt8(truncatingIfNeeded: unit.count >> (8 * $0)) }
      } else {
        bytes += [0, 0, 0, 1]
      }
      bytes += unit
    }
    return .stripped(bytes)
  }

  /// HEVC VPS, SPS, PPS and AUD; H.264 SPS, PPS and AUD.
  private var removedTypes: [Int] { hevc ? [32, 33, 34, 35] : [7, 8, 9] }

  private var parameterSetTypes: [Int] { hevc ? [32, 33, 34] : [7, 8] }

  /// An hvcC record with `array_completeness` set on its VPS, SPS and PPS
  /// arrays, as `hvc1` requires once the samples carry none; other records
  /// (avcC has no such flag, Annex B is made into a record by the muxer) as they are.
  public static func completeHVCC(_ record: [UInt8]) -> [UInt8] {
    // A record that does not add up (or is not hvcC) is left as it is.
    guard let configuration = try? DecoderConfiguration.hevc(record), configuration.recordLength == record.count else {
      return record
    }
    var bytes = record
    for offset in configuration.arrayHeaderOffsets where [32, 33, 34].contains(Int(bytes[offset] & 0x3F)) {
      bytes[offset] |= 0x80
    }
    return bytes
  }
}
