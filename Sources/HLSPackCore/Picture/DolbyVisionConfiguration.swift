/// A Dolby Vision stream's decoder configuration record: what an MP4 sample
/// entry's `dvcC`/`dvvC` box holds (Dolby Vision Streams Within the ISO Base
/// Media File Format §3.2; FFmpeg's AVDOVIDecoderConfigurationRecord), and
/// what a multivariant playlist names in SUPPLEMENTAL-CODECS.
public struct DolbyVisionConfiguration: Sendable, Equatable, Codable {
  public var versionMajor: Int
  public var versionMinor: Int
  public var profile: Int
  public var level: Int
  public var rpuPresent: Bool
  public var enhancementLayerPresent: Bool
  public var baseLayerPresent: Bool
  /// dv_bl_signal_compatibility_id: what a player without Dolby Vision
  /// makes of the base layer (1 HDR10, 2 SDR, 4 HLG).
  public var compatibilityID: Int

  public init(
    versionMajor: Int = 1, versionMinor: Int = 0, profile: Int, level: Int, rpuPresent: Bool = true,
    enhancementLayerPresent: Bool = false, baseLayerPresent: Bool = true, compatibilityID: Int
  ) {
    self.versionMajor = versionMajor
    self.versionMinor = versionMinor
    self.profile = profile
    self.level = level
    self.rpuPresent = rpuPresent
    self.enhancementLayerPresent = enhancementLayerPresent
    self.baseLayerPresent = baseLayerPresent
    self.compatibilityID = compatibilityID
  }

  /// The 24 bytes of a `dvcC`/`dvvC` box's payload: versions, then profile
  /// (7 bits), level (6), the RPU, EL and BL flags and the compatibility id (4).
  public init?(record bytes: ArraySlice<UInt8>) {
    guard bytes.count >= 5 else { return nil }
    let b = Array(bytes.prefix(5))
    self.init(
      versionMajor: Int(b[0]), versionMinor: Int(b[1]), profile: Int(b[2] >> 1),
      level: Int((b[2] & 1) << 5 | b[3] >> 3), rpuPresent: b[3] & 0b100 != 0,
      enhancementLayerPresent: b[3] & 0b10 != 0, baseLayerPresent: b[3] & 1 != 0,
      compatibilityID: Int(b[4] >> 4))
  }

  /// The compatibility brands of profile 8's base layers, by compatibility id
  /// (Apple HLS Authoring Specification, Dolby Vision; draft-pantos-hls-rfc8216bis
  /// §4.4.6.2, SUPPLEMENTAL-CODECS): HDR10 (PQ), SDR (BT.1886) and HLG.
  static let profile8Brands: [Int: (brand: String, range: VideoRange)] = [
    1: ("db1p", .pq), 2: ("db2g", .sdr), 4: ("db4h", .hlg),
  ]

  /// The SUPPLEMENTAL-CODECS entry: `dvh1.PP.LL`, and for profile 8 the
  /// brand that says which base layer it supplements (`dvh1.08.06/db1p`).
  public var supplementalCodec: String {
    let codec = "dvh1." + Self.twoDigits(profile) + "." + Self.twoDigits(level)
    guard profile == 8, let brand = Self.profile8Brands[compatibilityID]?.brand else { return codec }
    return codec + "/" + brand
  }

  /// Why a stream with this configuration cannot be copied as a Dolby Vision
  /// profile 8 variant whose base layer codes `range`; nil when it can.
  /// Profile 5's base layer is not in a standard colour space and profile 7
  /// needs its enhancement layer: neither has a base layer that a player
  /// without Dolby Vision shows right, which is what CODECS would promise.
  public func copyRefusal(baseLayerRange range: VideoRange) -> String? {
    guard profile == 8 else {
      return
        "it is Dolby Vision profile \(profile); only profile 8 (a base layer that plays as HDR10, SDR or HLG without Dolby Vision) can be copied"
    }
    guard let compatible = Self.profile8Brands[compatibilityID] else {
      return
        "it is Dolby Vision profile 8 with base-layer compatibility id \(compatibilityID); only 1 (HDR10), 2 (SDR) and 4 (HLG) can be copied"
    }
    guard compatible.range == range else {
      return
        "it is Dolby Vision profile 8.\(compatibilityID), whose base layer is \(compatible.range.rawValue), but its transfer characteristics say \(range.rawValue)"
    }
    return nil
  }

  private static func twoDigits(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
  }
}
