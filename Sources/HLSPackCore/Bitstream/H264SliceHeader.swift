/// The length of an H.264 slice header (ITU-T H.264 §7.3.3), for the clear
/// part of a `cbcs` subsample.
enum H264SliceHeader {
  /// Escaped bytes of the slice header that follow the 1-byte NAL unit header,
  /// its last partial byte included (ISO/IEC 23001-7, subsample encryption). `range` is the NAL unit.
  static func length(_ bytes: [UInt8], _ range: Range<Int>, sps: [Int: H264SPS], pps: [Int: H264PPS]) throws -> Int {
    let header = bytes[range.lowerBound]
    let nalType = Int(header & 0x1F)
    let nalRefIdc = Int(header >> 5 & 3)
    var r = NALBitReader(bytes, (range.lowerBound + 1)..<range.upperBound, structure: "H.264 slice header")
    guard nalType == 1 || nalType == 5 else {
      throw r.unsupported("nal_unit_type", "\(nalType) (only non-IDR and IDR slices, types 1 and 5)")
    }
    let idr = nalType == 5
    _ = try r.ue("first_mb_in_slice")
    let rawSliceType = try r.ue("slice_type", max: 9)
    let sliceType = rawSliceType % 5  // 0 P, 1 B, 2 I, 3 SP, 4 SI
    let (isP, isB, isI, isSP, isSI) = (sliceType == 0, sliceType == 1, sliceType == 2, sliceType == 3, sliceType == 4)
    let ppsID = try r.ue("pic_parameter_set_id", max: 255)
    guard let p = pps[ppsID] else { throw r.malformed("pic_parameter_set_id", "\(ppsID) refers to no PPS seen") }
    guard let s = sps[p.spsID] else {
      throw r.malformed("pic_parameter_set_id", "PPS \(ppsID) refers to SPS \(p.spsID), not seen")
    }
    if s.separateColourPlane { _ = try r.bits(2, "colour_plane_id") }
    _ = try r.bits(s.log2MaxFrameNum, "frame_num")
    var fieldPic = false
    if !s.frameMbsOnly {
      fieldPic = try r.bit("field_pic_flag")
      if fieldPic { _ = try r.bit("bottom_field_flag") }
    }
    if idr { _ = try r.ue("idr_pic_id", max: 65535) }
    if s.picOrderCntType == 0 {
      _ = try r.bits(s.log2MaxPicOrderCntLsb, "pic_order_cnt_lsb")
      if p.bottomFieldPicOrderInFramePresent, !fieldPic { _ = try r.se("delta_pic_order_cnt_bottom") }
    }
    if s.picOrderCntType == 1, !s.deltaPicOrderAlwaysZero {
      _ = try r.se("delta_pic_order_cnt[0]")
      if p.bottomFieldPicOrderInFramePresent, !fieldPic { _ = try r.se("delta_pic_order_cnt[1]") }
    }
    if p.redundantPicCntPresent { _ = try r.ue("redundant_pic_cnt", max: 127) }
    if isB { _ = try r.bit("direct_spatial_mv_pred_flag") }
    var l0 = p.numRefIdxL0DefaultMinus1, l1 = p.numRefIdxL1DefaultMinus1
    let maxRefIdx = fieldPic ? 31 : 15
    if isP || isSP || isB {
      if try r.bit("num_ref_idx_active_override_flag") {
        l0 = try r.ue("num_ref_idx_l0_active_minus1", max: maxRefIdx)
        if isB { l1 = try r.ue("num_ref_idx_l1_active_minus1", max: maxRefIdx) }
      }
    }
    // ref_pic_list_modification() (§7.3.3.1); types 20/21 (MVC) were refused above.
    if !isI, !isSI { try modifications(&r, list: 0) }
    if isB { try modifications(&r, list: 1) }
    if (p.weightedPred && (isP || isSP)) || (p.weightedBipredIdc == 1 && isB) {
      try predWeightTable(&r, chromaArrayType: s.chromaArrayType, l0: l0, l1: isB ? l1 : nil)
    }
    if nalRefIdc != 0 { try decRefPicMarking(&r, idr: idr) }
    if p.entropyCodingMode, !isI, !isSI { _ = try r.ue("cabac_init_idc", max: 2) }
    _ = try r.se("slice_qp_delta")
    if isSP || isSI {
      if isSP { _ = try r.bit("sp_for_switch_flag") }
      _ = try r.se("slice_qs_delta")
    }
    if p.deblockingFilterControlPresent {
      let idc = try r.ue("disable_deblocking_filter_idc", max: 2)
      if idc != 1 {
        _ = try r.se("slice_alpha_c0_offset_div2")
        _ = try r.se("slice_beta_offset_div2")
      }
    }
    // num_slice_groups_minus1 > 0 (slice_group_change_cycle) is refused with the PPS.
    let length = r.consumedBytes
    if p.entropyCodingMode {
      // slice_data() opens with cabac_alignment_one_bit up to the byte boundary:
      // a cheap proof that the header was read to its exact end.
      while !r.isByteAligned {
        guard try r.bit("cabac_alignment_one_bit") else {
          throw r.malformed("cabac_alignment_one_bit", "is 0: the slice header was misread")
        }
      }
    }
    return length
  }

  private static func modifications(_ r: inout NALBitReader, list: Int) throws {
    guard try r.bit("ref_pic_list_modification_flag_l\(list)") else { return }
    for _ in 0...32 {
      let idc = try r.ue("modification_of_pic_nums_idc", max: 5)
      switch idc {
      case 0, 1: _ = try r.ue("abs_diff_pic_num_minus1")
      case 2: _ = try r.ue("long_term_pic_num")
      case 3: return
      default: throw r.unsupported("modification_of_pic_nums_idc", "\(idc) (MVC)")
      }
    }
    throw r.malformed("modification_of_pic_nums_idc", "more than 33 list modifications")
  }

  private static func predWeightTable(_ r: inout NALBitReader, chromaArrayType: Int, l0: Int, l1: Int?) throws {
    _ = try r.ue("luma_log2_weight_denom", max: 7)
    if chromaArrayType != 0 { _ = try r.ue("chroma_log2_weight_denom", max: 7) }
    for (list, count) in [(0, l0), (1, l1)] {
      guard let count else { continue }
      for i in 0...count {
        if try r.bit("luma_weight_l\(list)_flag[\(i)]") {
          _ = try r.se("luma_weight_l\(list)[\(i)]")
          _ = try r.se("luma_offset_l\(list)[\(i)]")
        }
        if chromaArrayType != 0, try r.bit("chroma_weight_l\(list)_flag[\(i)]") {
          for j in 0..<2 {
            _ = try r.se("chroma_weight_l\(list)[\(i)][\(j)]")
            _ = try r.se("chroma_offset_l\(list)[\(i)][\(j)]")
          }
        }
      }
    }
  }

  private static func decRefPicMarking(_ r: inout NALBitReader, idr: Bool) throws {
    if idr {
      _ = try r.bit("no_output_of_prior_pics_flag")
      _ = try r.bit("long_term_reference_flag")
      return
    }
    guard try r.bit("adaptive_ref_pic_marking_mode_flag") else { return }
    for _ in 0...66 {
      let op = try r.ue("memory_management_control_operation", max: 6)
      if op == 0 { return }
      if op == 1 || op == 3 { _ = try r.ue("difference_of_pic_nums_minus1") }
      if op == 2 { _ = try r.ue("long_term_pic_num") }
      if op == 3 || op == 6 { _ = try r.ue("long_term_frame_idx") }
      if op == 4 { _ = try r.ue("max_long_term_frame_idx_plus1") }
    }
    throw r.malformed("memory_management_control_operation", "more than 66 operations")
  }
}
