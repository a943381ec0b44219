/// What an AV1 sequence header OBU (AV1 specification §5.5) says that a
/// codec string names: profile, level and tier of the first operating point,
/// bit depth, and the colour configuration.
public struct AV1SequenceHeader: Equatable, Sendable {
  public var profile: Int
  /// seq_level_idx[0]: 0 is level 2.0, 31 is "no level restrictions" (Annex A.3).
  public var levelIndex: Int
  /// seq_tier[0]: 0 Main, 1 High.
  public var tier: Int
  public var bitDepth: Int
  public var monochrome: Bool
  public var subsamplingX: Int
  public var subsamplingY: Int
  /// 0 unknown, 1 vertical, 2 colocated (0 unless both subsampling flags are set).
  public var chromaSamplePosition: Int
  /// 2 (unspecified) each when the header has no colour description.
  public var colorPrimaries = 2
  public var transferCharacteristics = 2
  public var matrixCoefficients = 2
  public var fullRange: Bool

  /// `payload`: the OBU's payload, after its header and size.
  public init(_ payload: [UInt8]) throws {
    var r = AV1BitReader(payload)
    profile = try r.bits(3, "seq_profile")
    guard profile <= 2 else {
      throw MediaFormatError.malformedBitstream(where: "AV1 sequence header", reason: "seq_profile \(profile)")
    }
    try r.skip(1, "still_picture")
    let reduced = try r.bits(1, "reduced_still_picture_header") == 1
    if reduced {
      levelIndex = try r.bits(5, "seq_level_idx[0]")
      tier = 0
    } else {
      (levelIndex, tier) = try Self.operatingPoints(&r)
    }
    let widthBits = try r.bits(4, "frame_width_bits_minus_1") + 1
    let heightBits = try r.bits(4, "frame_height_bits_minus_1") + 1
    try r.skip(widthBits + heightBits, "max_frame_width_minus_1, max_frame_height_minus_1")
    if !reduced, try r.bits(1, "frame_id_numbers_present_flag") == 1 {
      try r.skip(7, "delta_frame_id_length_minus_2, additional_frame_id_length_minus_1")
    }
    try r.skip(3, "use_128x128_superblock, enable_filter_intra, enable_intra_edge_filter")
    if !reduced {
      try r.skip(4, "enable_interintra_compound, enable_masked_compound, enable_warped_motion, enable_dual_filter")
      let orderHint = try r.bits(1, "enable_order_hint") == 1
      if orderHint { try r.skip(2, "enable_jnt_comp, enable_ref_frame_mvs") }
      var forceScreenContent = 2
      if try r.bits(1, "seq_choose_screen_content_tools") == 0 {
        forceScreenContent = try r.bits(1, "seq_force_screen_content_tools")
      }
      if forceScreenContent > 0, try r.bits(1, "seq_choose_integer_mv") == 0 { try r.skip(1, "seq_force_integer_mv") }
      if orderHint { try r.skip(3, "order_hint_bits_minus_1") }
    }
    try r.skip(3, "enable_superres, enable_cdef, enable_restoration")
    // color_config() (§5.5.2).
    let high = try r.bits(1, "high_bitdepth") == 1
    bitDepth = high ? 10 : 8
    if profile == 2, high, try r.bits(1, "twelve_bit") == 1 { bitDepth = 12 }
    monochrome = false
    if profile != 1 { monochrome = try r.bits(1, "mono_chrome") == 1 }
    if try r.bits(1, "color_description_present_flag") == 1 {
      colorPrimaries = try r.bits(8, "color_primaries")
      transferCharacteristics = try r.bits(8, "transfer_characteristics")
      matrixCoefficients = try r.bits(8, "matrix_coefficients")
    }
    chromaSamplePosition = 0
    if monochrome {
      fullRange = try r.bits(1, "color_range") == 1
      (subsamplingX, subsamplingY) = (1, 1)
    } else if colorPrimaries == 1, transferCharacteristics == 13, matrixCoefficients == 0 {
      // BT.709 primaries, sRGB transfer, identity matrix: 4:4:4 full range.
      fullRange = true
      (subsamplingX, subsamplingY) = (0, 0)
    } else {
      fullRange = try r.bits(1, "color_range") == 1
      switch profile {
      case 0: (subsamplingX, subsamplingY) = (1, 1)
      case 1: (subsamplingX, subsamplingY) = (0, 0)
      default:
        if bitDepth == 12 {
          subsamplingX = try r.bits(1, "subsampling_x")
          subsamplingY = 0
          if subsamplingX == 1 { subsamplingY = try r.bits(1, "subsampling_y") }
        } else {
          (subsamplingX, subsamplingY) = (1, 0)
        }
      }
      if subsamplingX == 1, subsamplingY == 1 { chromaSamplePosition = try r.bits(2, "chroma_sample_position") }
    }
  }

  /// seq_level_idx[0] and seq_tier[0], reading past every operating point (§5.5.1).
  private static func operatingPoints(_ r: inout AV1BitReader) throws -> (level: Int, tier: Int) {
    var bufferDelayLength: Int?
    if try r.bits(1, "timing_info_present_flag") == 1 {
      try r.skip(64, "num_units_in_display_tick, time_scale")
      if try r.bits(1, "equal_picture_interval") == 1 { try r.uvlc("num_ticks_per_picture_minus_1") }
      if try r.bits(1, "decoder_model_info_present_flag") == 1 {
        bufferDelayLength = try r.bits(5, "buffer_delay_length_minus_1") + 1
        try r.skip(42, "num_units_in_decoding_tick, buffer_removal_time_length_minus_1, frame_presentation_time_length_minus_1")
      }
    }
    let initialDisplayDelay = try r.bits(1, "initial_display_delay_present_flag") == 1
    let count = try r.bits(5, "operating_points_cnt_minus_1") + 1
    var first: (level: Int, tier: Int)?
    for _ in 0..<count {
      try r.skip(12, "operating_point_idc")
      let level = try r.bits(5, "seq_level_idx")
      var tier = 0
      if level > 7 { tier = try r.bits(1, "seq_tier") }
      first = first ?? (level, tier)
      if let bufferDelayLength, try r.bits(1, "decoder_model_present_for_this_op") == 1 {
        try r.skip(2 * bufferDelayLength + 1, "operating_parameters_info")
      }
      if initialDisplayDelay, try r.bits(1, "initial_display_delay_present_for_this_op") == 1 {
        try r.skip(4, "initial_display_delay_minus_1")
      }
    }
    return first ?? (0, 0)
  }

  /// `av01.P.LLT.DD` (AV1 Codec ISO Media File Format Binding §5): the
  /// optional colour fields are left out, which means their defaults.
  public var codecString: String {
    "av01.\(profile).\(Self.twoDigits(levelIndex))\(tier == 0 ? "M" : "H").\(Self.twoDigits(bitDepth))"
  }

  /// Every field of the long form, in order: mandatory then optional.
  public var codecFields: [String] {
    [
      "av01", String(profile), Self.twoDigits(levelIndex) + (tier == 0 ? "M" : "H"), Self.twoDigits(bitDepth),
      monochrome ? "1" : "0", "\(subsamplingX)\(subsamplingY)\(chromaSamplePosition)",
      Self.twoDigits(colorPrimaries), Self.twoDigits(transferCharacteristics), Self.twoDigits(matrixCoefficients),
      fullRange ? "1" : "0",
    ]
  }

  /// Why an `av01` CODECS entry (lower-cased) does not describe this
  /// header, or nil when it does: the four mandatory fields, and the six
  /// optional ones when it gives them (the binding has all or none).
  public func mismatch(declared entry: String) -> String? {
    let given = entry.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard given.count == 4 || given.count == 10 else {
      return "\"\(entry)\" has \(given.count) fields; av01 takes 4, or 10 with the colour fields"
    }
    let names = [
      "codec", "profile", "level and tier", "bit depth", "monochrome", "chroma subsampling and position",
      "colour primaries", "transfer characteristics", "matrix coefficients", "range",
    ]
    let actual = codecFields.map { $0.lowercased() }
    let wrong = given.indices.filter { given[$0] != actual[$0] }
      .map { "\(names[$0]) \"\(given[$0])\" (the sequence header gives \"\(codecFields[$0])\")" }
    return wrong.isEmpty ? nil : wrong.joined(separator: ", ")
  }

  private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}

/// Reads the plain bits of an AV1 OBU payload (f(n), uvlc()); AV1 has no
/// emulation prevention.
struct AV1BitReader {
  private let bytes: [UInt8]
  private var position = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  mutating func bits(_ n: Int, _ field: String) throws -> Int {
    var value = 0
    for _ in 0..<n {
      guard position < 8 * bytes.count else {
        throw MediaFormatError.malformedBitstream(
          where: "AV1 sequence header: \(field)", reason: "the OBU ends inside this field")
      }
      value = value << 1 | Int(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
      position += 1
    }
    return value
  }

  mutating func skip(_ n: Int, _ field: String) throws {
    var left = n
    while left > 0 {
      let step = min(left, 32)
      _ = try bits(step, field)
      left -= step
    }
  }

  /// uvlc() (§4.10.3), read past.
  mutating func uvlc(_ field: String) throws {
    var zeros = 0
    while try bits(1, field) == 0 {
      zeros += 1
      if zeros >= 32 { return }
    }
    try skip(zeros, field)
  }
}
