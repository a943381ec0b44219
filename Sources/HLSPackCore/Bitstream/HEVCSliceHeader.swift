/// The length of an H.265 slice segment header (ITU-T H.265 §7.3.6.1) with
/// its byte_alignment(), for the clear part of a `cbcs` subsample.
enum HEVCSliceHeader {
  /// Escaped bytes of the header that follow the 2-byte NAL unit header
  /// (always whole bytes: byte_alignment() ends it). `range` is the NAL unit.
  static func length(_ bytes: [UInt8], _ range: Range<Int>, sps: [Int: HEVCSPS], pps: [Int: HEVCPPS]) throws -> Int {
    var r = NALBitReader(bytes, (range.lowerBound + 2)..<range.upperBound, structure: "HEVC slice segment header")
    try HEVCNALHeader.requireBaseLayer(bytes, range, &r)
    let nalType = HEVCNALHeader.type(bytes, range.lowerBound)
    guard (0...9).contains(nalType) || (16...21).contains(nalType) else {
      throw r.unsupported("nal_unit_type", "\(nalType) (reserved VCL type)")
    }
    let first = try r.bit("first_slice_segment_in_pic_flag")
    if (16...23).contains(nalType) { _ = try r.bit("no_output_of_prior_pics_flag") }
    let ppsID = try r.ue("slice_pic_parameter_set_id", max: 63)
    guard let p = pps[ppsID] else { throw r.malformed("slice_pic_parameter_set_id", "\(ppsID) refers to no PPS seen") }
    guard let s = sps[p.spsID] else {
      throw r.malformed("slice_pic_parameter_set_id", "PPS \(ppsID) refers to SPS \(p.spsID), not seen")
    }
    var dependent = false
    if !first {
      if p.dependentSliceSegmentsEnabled { dependent = try r.bit("dependent_slice_segment_flag") }
      _ = try r.bits(ceilLog2(s.picSizeInCtbsY), "slice_segment_address")
    }
    if !dependent { try independentFields(&r, nalType: nalType, s, p) }
    if p.tilesEnabled || p.entropyCodingSyncEnabled {
      let entryPoints = try r.ue("num_entry_point_offsets", max: 440 * 22)
      if entryPoints > 0 {
        let width = try r.ue("offset_len_minus1", max: 31) + 1
        for i in 0..<entryPoints { _ = try r.bits(width, "entry_point_offset_minus1[\(i)]") }
      }
    }
    if p.sliceSegmentHeaderExtensionPresent {
      let length = try r.ue("slice_segment_header_extension_length", max: 256)
      try r.skip(8 * length, "slice_segment_header_extension_data_byte")
    }
    try r.byteAlignment("byte_alignment()")
    return r.consumedBytes
  }

  /// The fields an independent slice segment carries and a dependent one inherits.
  private static func independentFields(_ r: inout NALBitReader, nalType: Int, _ s: HEVCSPS, _ p: HEVCPPS) throws {
    try r.skip(p.numExtraSliceHeaderBits, "slice_reserved_flag")
    let sliceType = try r.ue("slice_type", max: 2)  // 0 B, 1 P, 2 I
    let (isB, isP) = (sliceType == 0, sliceType == 1)
    if p.outputFlagPresent { _ = try r.bit("pic_output_flag") }
    if s.separateColourPlane { _ = try r.bits(2, "colour_plane_id") }
    var references = References(numPicTotalCurr: 0, temporalMVP: false)
    if nalType != 19, nalType != 20 {  // not IDR_W_RADL, IDR_N_LP
      references = try referencePictures(&r, s)
    }
    var saoLuma = false, saoChroma = false
    if s.sampleAdaptiveOffsetEnabled {
      saoLuma = try r.bit("slice_sao_luma_flag")
      if s.chromaArrayType != 0 { saoChroma = try r.bit("slice_sao_chroma_flag") }
    }
    if isP || isB { try interPredictionFields(&r, s, p, isB: isB, references: references) }
    _ = try r.se("slice_qp_delta")
    if p.sliceChromaQPOffsetsPresent {
      _ = try r.se("slice_cb_qp_offset")
      _ = try r.se("slice_cr_qp_offset")
    }
    if p.chromaQPOffsetListEnabled { _ = try r.bit("cu_chroma_qp_offset_enabled_flag") }
    var override = false
    if p.deblockingFilterOverrideEnabled { override = try r.bit("deblocking_filter_override_flag") }
    var deblockingDisabled = p.deblockingFilterDisabled
    if override {
      deblockingDisabled = try r.bit("slice_deblocking_filter_disabled_flag")
      if !deblockingDisabled {
        _ = try r.se("slice_beta_offset_div2")
        _ = try r.se("slice_tc_offset_div2")
      }
    }
    if p.loopFilterAcrossSlicesEnabled, saoLuma || saoChroma || !deblockingDisabled {
      _ = try r.bit("slice_loop_filter_across_slices_enabled_flag")
    }
  }

  /// What a non-IDR slice's reference pictures tell the fields after them.
  private struct References {
    /// NumPicTotalCurr (§7.4.7.2): the width of list_entry_lX.
    var numPicTotalCurr: Int
    var temporalMVP: Bool
  }

  /// The picture order count and reference picture sets of a non-IDR slice.
  private static func referencePictures(_ r: inout NALBitReader, _ s: HEVCSPS) throws -> References {
    _ = try r.bits(s.log2MaxPicOrderCntLsb, "slice_pic_order_cnt_lsb")
    let rps: HEVCShortTermRPS
    if try !r.bit("short_term_ref_pic_set_sps_flag") {
      rps = try HEVCShortTermRPS(&r, index: s.shortTermRPS.count, inSliceHeader: true, previous: s.shortTermRPS)
    } else {
      guard !s.shortTermRPS.isEmpty else {
        throw r.malformed("short_term_ref_pic_set_sps_flag", "1, but the SPS has no reference picture sets")
      }
      let index = Int(try r.bits(ceilLog2(s.shortTermRPS.count), "short_term_ref_pic_set_idx"))
      guard index < s.shortTermRPS.count else {
        throw r.malformed("short_term_ref_pic_set_idx", "\(index) of \(s.shortTermRPS.count) sets")
      }
      rps = s.shortTermRPS[index]
    }
    var numPicTotalCurr = rps.usedCount
    if s.longTermRefPicsPresent { numPicTotalCurr += try longTermPicturesUsed(&r, s) }
    let temporalMVP = try s.temporalMVPEnabled ? r.bit("slice_temporal_mvp_enabled_flag") : false
    return References(numPicTotalCurr: numPicTotalCurr, temporalMVP: temporalMVP)
  }

  /// The long-term reference pictures, read for their length; returns how
  /// many of them the current picture uses.
  private static func longTermPicturesUsed(_ r: inout NALBitReader, _ s: HEVCSPS) throws -> Int {
    var used = 0
    let fromSPS =
      try s.longTermUsedByCurrPic.isEmpty ? 0 : r.ue("num_long_term_sps", max: s.longTermUsedByCurrPic.count)
    let own = try r.ue("num_long_term_pics", max: 32)
    for i in 0..<(fromSPS + own) {
      if i < fromSPS {
        var index = 0
        if s.longTermUsedByCurrPic.count > 1 {
          index = Int(try r.bits(ceilLog2(s.longTermUsedByCurrPic.count), "lt_idx_sps[\(i)]"))
          guard index < s.longTermUsedByCurrPic.count else {
            throw r.malformed("lt_idx_sps[\(i)]", "\(index) out of range")
          }
        }
        if s.longTermUsedByCurrPic[index] { used += 1 }
      } else {
        _ = try r.bits(s.log2MaxPicOrderCntLsb, "poc_lsb_lt[\(i)]")
        if try r.bit("used_by_curr_pic_lt_flag[\(i)]") { used += 1 }
      }
      if try r.bit("delta_poc_msb_present_flag[\(i)]") { _ = try r.ue("delta_poc_msb_cycle_lt[\(i)]") }
    }
    return used
  }

  /// The reference list and prediction fields of a P or B slice.
  private static func interPredictionFields(
    _ r: inout NALBitReader, _ s: HEVCSPS, _ p: HEVCPPS, isB: Bool, references: References
  ) throws {
    var l0 = p.numRefIdxL0DefaultMinus1, l1 = p.numRefIdxL1DefaultMinus1
    if try r.bit("num_ref_idx_active_override_flag") {
      l0 = try r.ue("num_ref_idx_l0_active_minus1", max: 14)
      if isB { l1 = try r.ue("num_ref_idx_l1_active_minus1", max: 14) }
    }
    if p.listsModificationPresent, references.numPicTotalCurr > 1 {
      // ref_pic_lists_modification() (§7.3.6.2)
      let width = ceilLog2(references.numPicTotalCurr)
      if try r.bit("ref_pic_list_modification_flag_l0") {
        for i in 0...l0 { _ = try r.bits(width, "list_entry_l0[\(i)]") }
      }
      if isB, try r.bit("ref_pic_list_modification_flag_l1") {
        for i in 0...l1 { _ = try r.bits(width, "list_entry_l1[\(i)]") }
      }
    }
    if isB { _ = try r.bit("mvd_l1_zero_flag") }
    if p.cabacInitPresent { _ = try r.bit("cabac_init_flag") }
    if references.temporalMVP {
      var fromL0 = true
      if isB { fromL0 = try r.bit("collocated_from_l0_flag") }
      if (fromL0 && l0 > 0) || (!fromL0 && l1 > 0) { _ = try r.ue("collocated_ref_idx", max: 14) }
    }
    if (p.weightedPred && !isB) || (p.weightedBipred && isB) {
      try predWeightTable(&r, chromaArrayType: s.chromaArrayType, l0: l0, l1: isB ? l1 : nil)
    }
    _ = try r.ue("five_minus_max_num_merge_cand", max: 4)
  }

  /// pred_weight_table() (§7.3.6.3) of a single-layer stream, where no
  /// reference picture has the current picture's order count, so every flag is present.
  private static func predWeightTable(_ r: inout NALBitReader, chromaArrayType: Int, l0: Int, l1: Int?) throws {
    _ = try r.ue("luma_log2_weight_denom", max: 7)
    if chromaArrayType != 0 { _ = try r.se("delta_chroma_log2_weight_denom") }
    for (list, count) in [(0, l0), (1, l1)] {
      guard let count else { continue }
      var luma: [Bool] = [], chroma: [Bool] = []
      for i in 0...count { luma.append(try r.bit("luma_weight_l\(list)_flag[\(i)]")) }
      if chromaArrayType != 0 {
        for i in 0...count { chroma.append(try r.bit("chroma_weight_l\(list)_flag[\(i)]")) }
      }
      for i in 0...count {
        if luma[i] {
          _ = try r.se("delta_luma_weight_l\(list)[\(i)]")
          _ = try r.se("luma_offset_l\(list)[\(i)]")
        }
        if chromaArrayType != 0, chroma[i] {
          for j in 0..<2 {
            _ = try r.se("delta_chroma_weight_l\(list)[\(i)][\(j)]")
            _ = try r.se("delta_chroma_offset_l\(list)[\(i)][\(j)]")
          }
        }
      }
    }
  }
}
