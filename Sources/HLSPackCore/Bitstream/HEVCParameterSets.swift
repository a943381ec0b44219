/// The fields of an H.265 sequence parameter set that shape slice segment
/// headers (ITU-T H.265 §7.3.2.2), and the picture verify checks. Parsing
/// stops after the VUI: nothing later matters to a single-layer Main, Main 10,
/// Main Still Picture or range-extensions stream, and other profiles (SCC,
/// multi-layer) are refused by their general_profile_idc.
struct HEVCSPS: Equatable {
  var id: Int
  var chromaArrayType: Int
  var separateColourPlane: Bool
  var log2MaxPicOrderCntLsb: Int
  var picSizeInCtbsY: Int
  var shortTermRPS: [HEVCShortTermRPS]
  var longTermRefPicsPresent: Bool
  var longTermUsedByCurrPic: [Bool]
  var temporalMVPEnabled: Bool
  var sampleAdaptiveOffsetEnabled: Bool
  /// The cropped picture size, VUI timing and colour, for verify; nil when
  /// the rest of the SPS cannot be read.
  var picture: SPSPicture?

  /// Main, Main 10, Main Still Picture, format range extensions.
  static let supportedProfiles: ClosedRange<UInt32> = 1...4

  init(_ bytes: [UInt8], _ range: Range<Int>) throws {
    var r = NALBitReader(bytes, (range.lowerBound + 2)..<range.upperBound, structure: "HEVC SPS")
    try HEVCNALHeader.requireBaseLayer(bytes, range, &r)
    _ = try r.bits(4, "sps_video_parameter_set_id")
    let maxSubLayersMinus1 = Int(try r.bits(3, "sps_max_sub_layers_minus1"))
    guard maxSubLayersMinus1 <= 6 else { throw r.malformed("sps_max_sub_layers_minus1", "\(maxSubLayersMinus1) > 6") }
    _ = try r.bit("sps_temporal_id_nesting_flag")
    try Self.profileTierLevel(&r, maxSubLayersMinus1: maxSubLayersMinus1)
    id = try r.ue("sps_seq_parameter_set_id", max: 15)
    let chromaFormat = try r.ue("chroma_format_idc", max: 3)
    separateColourPlane = try chromaFormat == 3 ? r.bit("separate_colour_plane_flag") : false
    chromaArrayType = separateColourPlane ? 0 : chromaFormat
    let width = try r.ue("pic_width_in_luma_samples", max: 65535)
    let height = try r.ue("pic_height_in_luma_samples", max: 65535)
    var window = [0, 0, 0, 0]
    if try r.bit("conformance_window_flag") {
      for (index, side) in ["left", "right", "top", "bottom"].enumerated() {
        window[index] = try r.ue("conf_win_\(side)_offset", max: 1 << 16)
      }
    }
    _ = try r.ue("bit_depth_luma_minus8", max: 8)
    _ = try r.ue("bit_depth_chroma_minus8", max: 8)
    log2MaxPicOrderCntLsb = try r.ue("log2_max_pic_order_cnt_lsb_minus4", max: 12) + 4
    let orderingInfo = try r.bit("sps_sub_layer_ordering_info_present_flag")
    for i in (orderingInfo ? 0 : maxSubLayersMinus1)...maxSubLayersMinus1 {
      _ = try r.ue("sps_max_dec_pic_buffering_minus1[\(i)]")
      _ = try r.ue("sps_max_num_reorder_pics[\(i)]")
      _ = try r.ue("sps_max_latency_increase_plus1[\(i)]")
    }
    let minCbLog2 = try r.ue("log2_min_luma_coding_block_size_minus3", max: 3) + 3
    let ctbLog2 = try minCbLog2 + r.ue("log2_diff_max_min_luma_coding_block_size", max: 3)
    guard ctbLog2 <= 6 else { throw r.malformed("log2_diff_max_min_luma_coding_block_size", "CTB size 2^\(ctbLog2)") }
    let ctb = 1 << ctbLog2
    picSizeInCtbsY = ((width + ctb - 1) / ctb) * ((height + ctb - 1) / ctb)
    _ = try r.ue("log2_min_luma_transform_block_size_minus2")
    _ = try r.ue("log2_diff_max_min_luma_transform_block_size")
    _ = try r.ue("max_transform_hierarchy_depth_inter")
    _ = try r.ue("max_transform_hierarchy_depth_intra")
    if try r.bit("scaling_list_enabled_flag"), try r.bit("sps_scaling_list_data_present_flag") {
      try HEVCScalingList.skip(&r)
    }
    _ = try r.bit("amp_enabled_flag")
    sampleAdaptiveOffsetEnabled = try r.bit("sample_adaptive_offset_enabled_flag")
    if try r.bit("pcm_enabled_flag") {
      _ = try r.bits(8, "pcm_sample_bit_depth_luma_minus1, pcm_sample_bit_depth_chroma_minus1")
      _ = try r.ue("log2_min_pcm_luma_coding_block_size_minus3")
      _ = try r.ue("log2_diff_max_min_pcm_luma_coding_block_size")
      _ = try r.bit("pcm_loop_filter_disabled_flag")
    }
    let sets = try r.ue("num_short_term_ref_pic_sets", max: 64)
    shortTermRPS = []
    for i in 0..<sets {
      shortTermRPS.append(try HEVCShortTermRPS(&r, index: i, inSliceHeader: false, previous: shortTermRPS))
    }
    longTermRefPicsPresent = try r.bit("long_term_ref_pics_present_flag")
    longTermUsedByCurrPic = []
    if longTermRefPicsPresent {
      let count = try r.ue("num_long_term_ref_pics_sps", max: 32)
      for i in 0..<count {
        _ = try r.bits(log2MaxPicOrderCntLsb, "lt_ref_pic_poc_lsb_sps[\(i)]")
        longTermUsedByCurrPic.append(try r.bit("used_by_curr_pic_lt_sps_flag[\(i)]"))
      }
    }
    temporalMVPEnabled = try r.bit("sps_temporal_mvp_enabled_flag")
    picture = try? SPSPicture(
      hevcReading: &r, codedWidth: width, codedHeight: height, conformanceWindow: window, chromaFormat: chromaFormat)
  }

  /// profile_tier_level(1, sps_max_sub_layers_minus1) (§7.3.3): read for its
  /// length, refusing a profile outside `supportedProfiles`.
  private static func profileTierLevel(_ r: inout NALBitReader, maxSubLayersMinus1: Int) throws {
    _ = try r.bits(3, "general_profile_space, general_tier_flag")
    let profile = try r.bits(5, "general_profile_idc")
    let compatibility = try r.bits(32, "general_profile_compatibility_flag")
    let compatible = supportedProfiles.contains { compatibility & (UInt32(1) << (31 - $0)) != 0 }
    guard supportedProfiles.contains(profile) || (profile == 0 && compatible) else {
      throw r.unsupported(
        "general_profile_idc", "\(profile) (only Main, Main 10, Main Still Picture and range extensions, 1–4)")
    }
    try r.skip(48, "general constraint flags")
    _ = try r.bits(8, "general_level_idc")
    var profilePresent: [Bool] = [], levelPresent: [Bool] = []
    for i in 0..<maxSubLayersMinus1 {
      profilePresent.append(try r.bit("sub_layer_profile_present_flag[\(i)]"))
      levelPresent.append(try r.bit("sub_layer_level_present_flag[\(i)]"))
    }
    if maxSubLayersMinus1 > 0 { try r.skip(2 * (8 - maxSubLayersMinus1), "reserved_zero_2bits") }
    for i in 0..<maxSubLayersMinus1 {
      if profilePresent[i] { try r.skip(88, "sub_layer profile[\(i)]") }
      if levelPresent[i] { try r.skip(8, "sub_layer_level_idc[\(i)]") }
    }
  }
}

/// The fields of an H.265 picture parameter set that shape slice segment headers (§7.3.2.3).
struct HEVCPPS: Equatable {
  var id: Int
  var spsID: Int
  var dependentSliceSegmentsEnabled: Bool
  var outputFlagPresent: Bool
  var numExtraSliceHeaderBits: Int
  var cabacInitPresent: Bool
  var numRefIdxL0DefaultMinus1: Int
  var numRefIdxL1DefaultMinus1: Int
  var sliceChromaQPOffsetsPresent: Bool
  var weightedPred: Bool
  var weightedBipred: Bool
  var tilesEnabled: Bool
  var entropyCodingSyncEnabled: Bool
  var loopFilterAcrossSlicesEnabled: Bool
  var deblockingFilterOverrideEnabled: Bool
  var deblockingFilterDisabled: Bool
  var listsModificationPresent: Bool
  var sliceSegmentHeaderExtensionPresent: Bool
  var chromaQPOffsetListEnabled: Bool

  init(_ bytes: [UInt8], _ range: Range<Int>) throws {
    var r = NALBitReader(bytes, (range.lowerBound + 2)..<range.upperBound, structure: "HEVC PPS")
    try HEVCNALHeader.requireBaseLayer(bytes, range, &r)
    id = try r.ue("pps_pic_parameter_set_id", max: 63)
    spsID = try r.ue("pps_seq_parameter_set_id", max: 15)
    dependentSliceSegmentsEnabled = try r.bit("dependent_slice_segments_enabled_flag")
    outputFlagPresent = try r.bit("output_flag_present_flag")
    numExtraSliceHeaderBits = Int(try r.bits(3, "num_extra_slice_header_bits"))
    _ = try r.bit("sign_data_hiding_enabled_flag")
    cabacInitPresent = try r.bit("cabac_init_present_flag")
    numRefIdxL0DefaultMinus1 = try r.ue("num_ref_idx_l0_default_active_minus1", max: 14)
    numRefIdxL1DefaultMinus1 = try r.ue("num_ref_idx_l1_default_active_minus1", max: 14)
    _ = try r.se("init_qp_minus26")
    _ = try r.bit("constrained_intra_pred_flag")
    let transformSkip = try r.bit("transform_skip_enabled_flag")
    if try r.bit("cu_qp_delta_enabled_flag") { _ = try r.ue("diff_cu_qp_delta_depth") }
    _ = try r.se("pps_cb_qp_offset")
    _ = try r.se("pps_cr_qp_offset")
    sliceChromaQPOffsetsPresent = try r.bit("pps_slice_chroma_qp_offsets_present_flag")
    weightedPred = try r.bit("weighted_pred_flag")
    weightedBipred = try r.bit("weighted_bipred_flag")
    _ = try r.bit("transquant_bypass_enabled_flag")
    tilesEnabled = try r.bit("tiles_enabled_flag")
    entropyCodingSyncEnabled = try r.bit("entropy_coding_sync_enabled_flag")
    if tilesEnabled {
      let columns = try r.ue("num_tile_columns_minus1", max: 19)
      let rows = try r.ue("num_tile_rows_minus1", max: 21)
      if try !r.bit("uniform_spacing_flag") {
        for i in 0..<columns { _ = try r.ue("column_width_minus1[\(i)]") }
        for i in 0..<rows { _ = try r.ue("row_height_minus1[\(i)]") }
      }
      _ = try r.bit("loop_filter_across_tiles_enabled_flag")
    }
    loopFilterAcrossSlicesEnabled = try r.bit("pps_loop_filter_across_slices_enabled_flag")
    deblockingFilterOverrideEnabled = false
    deblockingFilterDisabled = false
    if try r.bit("deblocking_filter_control_present_flag") {
      deblockingFilterOverrideEnabled = try r.bit("deblocking_filter_override_enabled_flag")
      deblockingFilterDisabled = try r.bit("pps_deblocking_filter_disabled_flag")
      if !deblockingFilterDisabled {
        _ = try r.se("pps_beta_offset_div2")
        _ = try r.se("pps_tc_offset_div2")
      }
    }
    if try r.bit("pps_scaling_list_data_present_flag") { try HEVCScalingList.skip(&r) }
    listsModificationPresent = try r.bit("lists_modification_present_flag")
    _ = try r.ue("log2_parallel_merge_level_minus2")
    sliceSegmentHeaderExtensionPresent = try r.bit("slice_segment_header_extension_present_flag")
    chromaQPOffsetListEnabled = false
    if try r.bit("pps_extension_present_flag") {
      let range = try r.bit("pps_range_extension_flag")
      for name in ["pps_multilayer_extension_flag", "pps_3d_extension_flag", "pps_scc_extension_flag"] {
        if try r.bit(name) { throw r.unsupported(name, "1") }
      }
      _ = try r.bits(4, "pps_extension_4bits")
      if range {
        // pps_range_extension() (§7.3.2.3.2) up to the one flag a slice header reads.
        if transformSkip { _ = try r.ue("log2_max_transform_skip_block_size_minus2") }
        _ = try r.bit("cross_component_prediction_enabled_flag")
        chromaQPOffsetListEnabled = try r.bit("chroma_qp_offset_list_enabled_flag")
      }
    }
  }
}

/// scaling_list_data() (§7.3.4): only its length matters here.
enum HEVCScalingList {
  static func skip(_ r: inout NALBitReader) throws {
    for sizeID in 0..<4 {
      for matrixID in stride(from: 0, to: 6, by: sizeID == 3 ? 3 : 1) {
        if try !r.bit("scaling_list_pred_mode_flag[\(sizeID)][\(matrixID)]") {
          _ = try r.ue("scaling_list_pred_matrix_id_delta[\(sizeID)][\(matrixID)]", max: 5)
        } else {
          if sizeID > 1 { _ = try r.se("scaling_list_dc_coef_minus8[\(sizeID)][\(matrixID)]") }
          for i in 0..<min(64, 1 << (4 + (sizeID << 1))) { _ = try r.se("scaling_list_delta_coef[\(i)]") }
        }
      }
    }
  }
}

/// The 2-byte H.265 NAL unit header (§7.3.1.2).
enum HEVCNALHeader {
  static func type(_ bytes: [UInt8], _ offset: Int) -> Int { Int(bytes[offset] >> 1 & 0x3F) }
  static func layerID(_ bytes: [UInt8], _ offset: Int) -> Int {
    Int(bytes[offset] & 1) << 5 | Int(bytes[offset + 1] >> 3)
  }

  /// Multi-layer streams change parameter set and slice header syntax.
  static func requireBaseLayer(_ bytes: [UInt8], _ range: Range<Int>, _ r: inout NALBitReader) throws {
    guard range.count >= 2 else { throw r.malformed("nal_unit_header", "the NAL unit is \(range.count) bytes") }
    let layer = layerID(bytes, range.lowerBound)
    guard layer == 0 else { throw r.unsupported("nuh_layer_id", "\(layer) (multi-layer HEVC)") }
  }
}
