/// The fields of an H.264 sequence parameter set that shape slice headers
/// (ITU-T H.264 §7.3.2.1.1).
struct H264SPS: Equatable {
  var id: Int
  /// 0 with separate colour planes or monochrome, else chroma_format_idc.
  var chromaArrayType: Int
  var separateColourPlane: Bool
  var log2MaxFrameNum: Int
  var picOrderCntType: Int
  var log2MaxPicOrderCntLsb: Int
  var deltaPicOrderAlwaysZero: Bool
  var frameMbsOnly: Bool
  /// The cropped picture size and VUI timing, for verify; nil when the rest
  /// of the SPS cannot be read.
  var picture: SPSPicture?

  /// Profiles whose SPS carries chroma_format_idc, bit depths and scaling matrices.
  static let highProfiles: Set<UInt32> = [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]

  /// Parses an SPS NAL unit (`range` includes its 1-byte header).
  init(_ bytes: [UInt8], _ range: Range<Int>) throws {
    var r = NALBitReader(bytes, (range.lowerBound + 1)..<range.upperBound, structure: "H.264 SPS")
    let profile = try r.bits(8, "profile_idc")
    _ = try r.bits(16, "constraint_set_flags, level_idc")
    id = try r.ue("seq_parameter_set_id", max: 31)
    var chromaFormat = 1
    separateColourPlane = false
    if Self.highProfiles.contains(profile) {
      chromaFormat = try r.ue("chroma_format_idc", max: 3)
      if chromaFormat == 3 { separateColourPlane = try r.bit("separate_colour_plane_flag") }
      _ = try r.ue("bit_depth_luma_minus8", max: 6)
      _ = try r.ue("bit_depth_chroma_minus8", max: 6)
      _ = try r.bit("qpprime_y_zero_transform_bypass_flag")
      if try r.bit("seq_scaling_matrix_present_flag") {
        for i in 0..<(chromaFormat != 3 ? 8 : 12) {
          if try r.bit("seq_scaling_list_present_flag[\(i)]") { try Self.skipScalingList(&r, size: i < 6 ? 16 : 64) }
        }
      }
    }
    chromaArrayType = separateColourPlane ? 0 : chromaFormat
    log2MaxFrameNum = try r.ue("log2_max_frame_num_minus4", max: 12) + 4
    picOrderCntType = try r.ue("pic_order_cnt_type", max: 2)
    log2MaxPicOrderCntLsb = 0
    deltaPicOrderAlwaysZero = false
    if picOrderCntType == 0 {
      log2MaxPicOrderCntLsb = try r.ue("log2_max_pic_order_cnt_lsb_minus4", max: 12) + 4
    } else if picOrderCntType == 1 {
      deltaPicOrderAlwaysZero = try r.bit("delta_pic_order_always_zero_flag")
      _ = try r.se("offset_for_non_ref_pic")
      _ = try r.se("offset_for_top_to_bottom_field")
      let cycle = try r.ue("num_ref_frames_in_pic_order_cnt_cycle", max: 255)
      for i in 0..<cycle { _ = try r.se("offset_for_ref_frame[\(i)]") }
    }
    _ = try r.ue("max_num_ref_frames")
    _ = try r.bit("gaps_in_frame_num_value_allowed_flag")
    let widthInMbs = try r.ue("pic_width_in_mbs_minus1", max: 1 << 16) + 1
    let heightInMapUnits = try r.ue("pic_height_in_map_units_minus1", max: 1 << 16) + 1
    frameMbsOnly = try r.bit("frame_mbs_only_flag")
    picture = try? SPSPicture(
      h264Reading: &r, widthInMbs: widthInMbs, heightInMapUnits: heightInMapUnits, chromaFormat: chromaFormat,
      separateColourPlane: separateColourPlane, frameMbsOnly: frameMbsOnly)
  }

  /// scaling_list() (§7.3.2.1.1.1): only its length matters here.
  private static func skipScalingList(_ r: inout NALBitReader, size: Int) throws {
    var last = 8, next = 8
    for j in 0..<size {
      if next != 0 {
        let delta = try r.se("delta_scale[\(j)]")
        next = ((last + delta) % 256 + 256) % 256
      }
      last = next == 0 ? last : next
    }
  }
}

/// The fields of an H.264 picture parameter set that shape slice headers (§7.3.2.2).
struct H264PPS: Equatable {
  var id: Int
  var spsID: Int
  var entropyCodingMode: Bool
  var bottomFieldPicOrderInFramePresent: Bool
  var numRefIdxL0DefaultMinus1: Int
  var numRefIdxL1DefaultMinus1: Int
  var weightedPred: Bool
  var weightedBipredIdc: Int
  var deblockingFilterControlPresent: Bool
  var redundantPicCntPresent: Bool

  init(_ bytes: [UInt8], _ range: Range<Int>) throws {
    var r = NALBitReader(bytes, (range.lowerBound + 1)..<range.upperBound, structure: "H.264 PPS")
    id = try r.ue("pic_parameter_set_id", max: 255)
    spsID = try r.ue("seq_parameter_set_id", max: 31)
    entropyCodingMode = try r.bit("entropy_coding_mode_flag")
    bottomFieldPicOrderInFramePresent = try r.bit("bottom_field_pic_order_in_frame_present_flag")
    let sliceGroups = try r.ue("num_slice_groups_minus1")
    guard sliceGroups == 0 else {
      throw r.unsupported("num_slice_groups_minus1", "\(sliceGroups) (flexible macroblock ordering)")
    }
    numRefIdxL0DefaultMinus1 = try r.ue("num_ref_idx_l0_default_active_minus1", max: 31)
    numRefIdxL1DefaultMinus1 = try r.ue("num_ref_idx_l1_default_active_minus1", max: 31)
    weightedPred = try r.bit("weighted_pred_flag")
    weightedBipredIdc = Int(try r.bits(2, "weighted_bipred_idc"))
    _ = try r.se("pic_init_qp_minus26")
    _ = try r.se("pic_init_qs_minus26")
    _ = try r.se("chroma_qp_index_offset")
    deblockingFilterControlPresent = try r.bit("deblocking_filter_control_present_flag")
    _ = try r.bit("constrained_intra_pred_flag")
    redundantPicCntPresent = try r.bit("redundant_pic_cnt_present_flag")
  }
}
