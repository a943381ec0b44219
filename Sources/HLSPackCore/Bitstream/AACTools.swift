/// Whether an AAC stream uses SBR (HE-AAC, `mp4a.40.5`) and PS (HE-AACv2,
/// `mp4a.40.29`) on its AAC-LC core.
public struct AACTools: Sendable, Equatable {
  public var sbr: Bool
  public var ps: Bool

  public init(sbr: Bool, ps: Bool) {
    self.sbr = sbr
    self.ps = ps
  }

  /// What an AudioSpecificConfig signals explicitly (ISO/IEC 14496-3
  /// §1.6.2.1, §1.6.5.2): audioObjectType 5 or 29 first (hierarchical
  /// signalling), or after the core's GASpecificConfig the sync extension
  /// 0x2B7 with extensionAudioObjectType 5 and sbrPresentFlag, then 0x548
  /// with psPresentFlag (backward-compatible signalling). nil when it says
  /// neither way: an AAC-LC config without the extension may still carry SBR
  /// and PS implicitly, in the frames' fill elements, which only a decoder sees.
  public static func signalled(by config: ArraySlice<UInt8>) -> AACTools? {
    var reader = BitReader(config)
    guard let objectType = reader.objectType(), reader.skipFrequency() else { return nil }
    guard let channels = reader.bits(4) else { return nil }  // channelConfiguration
    if objectType == 5 || objectType == 29 { return AACTools(sbr: true, ps: objectType == 29) }
    // GASpecificConfig for the AAC-LC core (§4.4.1): frameLengthFlag,
    // dependsOnCoreCoder (+ 14 bits of delay), extensionFlag; a program
    // config element (channelConfiguration 0) is not read.
    guard objectType == 2, channels != 0, reader.skip(1), let core = reader.bit() else { return nil }
    guard core == 0 || reader.skip(14), let extensionFlag = reader.bit(), extensionFlag == 0 else { return nil }
    guard reader.remaining >= 16, reader.bits(11) == 0x2B7, let extensionType = reader.objectType(), extensionType == 5,
      let sbr = reader.bit()
    else { return nil }
    guard sbr == 1 else { return AACTools(sbr: false, ps: false) }
    guard reader.skipFrequency() else { return nil }
    let ps = reader.remaining >= 12 && reader.bits(11) == 0x548 && reader.bit() == 1
    return AACTools(sbr: true, ps: ps)
  }
}

/// MSB-first bits of a byte slice.
private struct BitReader {
  let bytes: ArraySlice<UInt8>
  var position = 0

  init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

  var remaining: Int { bytes.count * 8 - position }

  mutating func bits(_ count: Int) -> Int? {
    guard count <= remaining else { return nil }
    var value = 0
    for _ in 0..<count {
      let byte = bytes[bytes.startIndex + position / 8]
      value = value << 1 | Int(byte >> (7 - UInt8(position % 8)) & 1)
      position += 1
    }
    return value
  }

  mutating func bit() -> Int? { bits(1) }

  mutating func skip(_ count: Int) -> Bool { bits(count) != nil }

  /// GetAudioObjectType(): five bits, 31 escaping to 32 + six more.
  mutating func objectType() -> Int? {
    guard let first = bits(5) else { return nil }
    guard first == 31 else { return first }
    return bits(6).map { 32 + $0 }
  }

  /// samplingFrequencyIndex, and the 24-bit frequency index 15 escapes to.
  mutating func skipFrequency() -> Bool {
    guard let index = bits(4) else { return false }
    return index != 15 || skip(24)
  }
}

/// The first AAC frames of a segment, clear or decrypted, for a decoder to
/// find SBR and PS that the config does not signal: ADTS frames (`config`
/// nil), or raw access units with their AudioSpecificConfig.
public struct AACProbe: Sendable, Equatable {
  public var config: [UInt8]?
  public var units: [[UInt8]]

  public init(config: [UInt8]?, units: [[UInt8]]) {
    self.config = config
    self.units = units
  }

  /// Frames enough: implicit SBR must show in the first frame (ISO/IEC 14496-3 §4.6.18.2.6).
  public static let units = 4
}
