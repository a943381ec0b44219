/// What a rung's level allows: picture size, samples per second and bit
/// rate (H.264 Table A-1; HEVC Table A.8, Main tier). The encoders write the
/// level they are given into the stream and the CODECS attribute whatever the
/// picture (x264 only warns), and a player that picks variants by level would
/// take a stream its decoder may refuse, so a rung beyond its level is
/// turned away before any work starts.
public struct CodecLevel: Sendable, Equatable {
  public var codec: VideoCodec
  public var name: String
  /// H.264: macroblocks (16x16); HEVC: luma samples.
  var maxPicture: Int
  /// The same per second.
  var maxRate: Int
  /// kbit/s, before the profile's factor.
  var maxBitrate: Int

  /// H.264: level, MaxMBPS, MaxFS, MaxBR.
  private static let h264: [(String, Int, Int, Int)] = [
    ("1.0", 1485, 99, 64), ("1b", 1485, 99, 128), ("1.1", 3000, 396, 192), ("1.2", 6000, 396, 384),
    ("1.3", 11880, 396, 768), ("2.0", 11880, 396, 2000), ("2.1", 19800, 792, 4000), ("2.2", 20250, 1620, 4000),
    ("3.0", 40500, 1620, 10000), ("3.1", 108000, 3600, 14000), ("3.2", 216000, 5120, 20000),
    ("4.0", 245760, 8192, 20000), ("4.1", 245760, 8192, 50000), ("4.2", 522240, 8704, 50000),
    ("5.0", 589824, 22080, 135000), ("5.1", 983040, 36864, 240000), ("5.2", 2_073_600, 36864, 240000),
    ("6.0", 4_177_920, 139264, 240000), ("6.1", 8_355_840, 139264, 480000), ("6.2", 16_711_680, 139264, 800000),
  ]
  /// HEVC: level, MaxLumaSr, MaxLumaPs, MaxBR (Main tier).
  private static let hevc: [(String, Int, Int, Int)] = [
    ("1.0", 552960, 36864, 128), ("2.0", 3_686_400, 122880, 1500), ("2.1", 7_372_800, 245760, 3000),
    ("3.0", 16_588_800, 552960, 6000), ("3.1", 33_177_600, 983040, 10000), ("4.0", 66_846_720, 2_228_224, 12000),
    ("4.1", 133_693_440, 2_228_224, 20000), ("5.0", 267_386_880, 8_912_896, 25000),
    ("5.1", 534_773_760, 8_912_896, 40000),
    ("5.2", 1_069_547_520, 8_912_896, 60000), ("6.0", 1_069_547_520, 35_651_584, 60000),
    ("6.1", 2_139_095_040, 35_651_584, 120000),
    ("6.2", 4_278_190_080, 35_651_584, 240000),
  ]

  private static func table(_ codec: VideoCodec) -> [(String, Int, Int, Int)] {
    switch codec {
    case .h264: h264
    case .hevc: hevc
    // AV1 rungs take the level SVT-AV1 picks for their picture and rate.
    case .av1, .copy: []
    }
  }

  /// The levels of a codec, lowest first, named as in a profile.
  public static func names(of codec: VideoCodec) -> [String] { table(codec).map(\.0) }

  /// The level named as in a profile ("4.1", "1b"), if the codec has it.
  public init?(codec: VideoCodec, name: String) {
    guard let row = Self.table(codec).first(where: { $0.0 == name }) else { return nil }
    self.codec = codec
    self.name = name
    maxRate = row.1
    maxPicture = row.2
    maxBitrate = row.3
  }

  /// Why a picture of `width`x`height` breaks the level, or nil. Each side is
  /// also bounded (at most √(8·MaxFS) in the level's units).
  public func pictureProblem(width: Int, height: Int) -> String? {
    let picture = units(width: width, height: height)
    let longestSide = Int(Double(8 * maxPicture).squareRoot())
    let sides = codec == .h264 ? [(width + 15) / 16, (height + 15) / 16] : [width, height]
    if picture > maxPicture {
      return "level \(name) allows pictures of at most \(maxPicture) \(unit); \(width)x\(height) has \(picture)"
    }
    if let side = sides.max(), side > longestSide {
      return "level \(name) allows a picture side of at most \(longestSide) \(unit); \(width)x\(height) has \(side)"
    }
    return nil
  }

  /// Why `width`x`height` at `rate` frames per second breaks the level, or nil.
  public func rateProblem(width: Int, height: Int, rate: FrameRate) -> String? {
    let perSecond = Double(units(width: width, height: height)) * rate.value
    guard perSecond > Double(maxRate) else { return nil }
    return
      "level \(name) allows \(maxRate) \(unit) per second; \(width)x\(height) at \(rate) fps has \(Int(perSecond.rounded(.up)))"
  }

  /// Why a stream of `bitrate` bit/s breaks the level for `profile`, or nil:
  /// H.264 High allows 1.25 times MaxBR (x264 picks High when no profile is set).
  public func bitrateProblem(_ bitrate: Int, profile: String?) -> String? {
    let factor = codec == .h264 && (profile ?? "high") == "high" ? 1250 : 1000
    let limit = maxBitrate * factor
    guard bitrate > limit else { return nil }
    return "level \(name) allows at most \(limit) bit/s for this profile; the rung asks for \(bitrate)"
  }

  private var unit: String { codec == .h264 ? "macroblocks" : "luma samples" }

  private func units(width: Int, height: Int) -> Int {
    codec == .h264 ? ((width + 15) / 16) * ((height + 15) / 16) : width * height
  }
}
