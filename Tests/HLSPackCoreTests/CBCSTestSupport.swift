import Foundation
import HLSPackTestSupport
import Testing

@testable import HLSPackCore

/// Writes RBSP bits for hand-made parameter sets and slice headers.
struct RBSPWriter {
  private(set) var bits: [Bool] = []

  mutating func u(_ n: Int, _ value: Int) {
    for i in stride(from: n - 1, through: 0, by: -1) { bits.append((value >> i) & 1 == 1) }
  }

  mutating func flag(_ value: Bool) { bits.append(value) }

  mutating func ue(_ value: Int) {
    let code = value + 1
    let width = Int.bitWidth - code.leadingZeroBitCount
    u(width - 1, 0)
    u(width, code)
  }

  mutating func se(_ value: Int) { ue(value > 0 ? 2 * value - 1 : -2 * value) }

  /// rbsp_trailing_bits(): a one, then zeros to the byte boundary.
  mutating func trailing() {
    flag(true)
    while bits.count % 8 != 0 { flag(false) }
  }

  /// Pads with `byte`-pattern bits to the boundary (slice data stand-in).
  var bytes: [UInt8] {
    stride(from: 0, to: bits.count, by: 8).map { start in
      (0..<8).reduce(UInt8(0)) { acc, i in acc << 1 | (start + i < bits.count && bits[start + i] ? 1 : 0) }
    }
  }
}

/// Box bytes for hand-made ISO-BMFF.
func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
  be32(8 + payload.count) + Array(type.utf8) + payload
}

/// A length-prefixed (4-byte) sample from NAL units.
func lengthPrefixed(_ nals: [[UInt8]]) -> [UInt8] { nals.flatMap { be32($0.count) + $0 } }

/// A small H.264 stream made by hand: Baseline SPS/PPS (CAVLC), IDR slices
/// with a header of a chosen length, and filler that never needs escaping.
enum HandMadeH264 {
  /// SPS: profile 66, level 3.0, log2_max_frame_num 4 + `frameNumExtra`, POC type `pocType`.
  static func sps(frameNumExtra: Int = 0, pocType: Int = 0, pocLsbExtra: Int = 2) -> [UInt8] {
    var w = RBSPWriter()
    w.u(8, 66)  // profile_idc
    w.u(8, 0)  // constraint flags
    w.u(8, 30)  // level_idc
    w.ue(0)  // seq_parameter_set_id
    w.ue(frameNumExtra)  // log2_max_frame_num_minus4
    w.ue(pocType)  // pic_order_cnt_type
    if pocType == 0 { w.ue(pocLsbExtra) }  // log2_max_pic_order_cnt_lsb_minus4
    w.ue(1)  // max_num_ref_frames
    w.flag(false)  // gaps_in_frame_num_value_allowed_flag
    w.ue(19)  // pic_width_in_mbs_minus1
    w.ue(10)  // pic_height_in_map_units_minus1
    w.flag(true)  // frame_mbs_only_flag
    w.flag(true)  // direct_8x8_inference_flag
    w.flag(false)  // frame_cropping_flag
    w.flag(false)  // vui_parameters_present_flag
    w.trailing()
    return [0x67] + EmulationPrevention.inserted(w.bytes)
  }

  static func pps() -> [UInt8] {
    var w = RBSPWriter()
    w.ue(0)  // pic_parameter_set_id
    w.ue(0)  // seq_parameter_set_id
    w.flag(false)  // entropy_coding_mode_flag: CAVLC
    w.flag(false)  // bottom_field_pic_order_in_frame_present_flag
    w.ue(0)  // num_slice_groups_minus1
    w.ue(0)  // num_ref_idx_l0_default_active_minus1
    w.ue(0)  // num_ref_idx_l1_default_active_minus1
    w.flag(false)  // weighted_pred_flag
    w.u(2, 0)  // weighted_bipred_idc
    w.se(0)  // pic_init_qp_minus26
    w.se(0)  // pic_init_qs_minus26
    w.se(0)  // chroma_qp_index_offset
    w.flag(true)  // deblocking_filter_control_present_flag
    w.flag(false)  // constrained_intra_pred_flag
    w.flag(false)  // redundant_pic_cnt_present_flag
    w.trailing()
    return [0x68] + EmulationPrevention.inserted(w.bytes)
  }

  static func avcC(sps: [UInt8], pps: [UInt8]) -> [UInt8] {
    [1, 66, 0, 30, 0xFF, 0xE1] + be16(sps.count) + sps + [1] + be16(pps.count) + pps
  }

  /// The 48-bit IDR slice header of the `cbcs` video sample example
  /// (docs/conformance.md, Worked examples; 6 bytes after rounding),
  /// for `sps()` and `pps()`: first_mb 0, slice_type 7 (I), idr_pic_id 100,
  /// slice_qp_delta +20, deblocking on with zero offsets.
  static func idrHeaderBits() -> RBSPWriter {
    var w = RBSPWriter()
    w.ue(0)  // first_mb_in_slice: 1 bit
    w.ue(7)  // slice_type: 7 bits
    w.ue(0)  // pic_parameter_set_id: 1 bit
    w.u(4, 0)  // frame_num: 4 bits
    w.ue(100)  // idr_pic_id: 13 bits
    w.u(6, 0)  // pic_order_cnt_lsb: 6 bits
    w.flag(false)  // no_output_of_prior_pics_flag
    w.flag(false)  // long_term_reference_flag
    w.se(20)  // slice_qp_delta: 11 bits
    w.ue(0)  // disable_deblocking_filter_idc: 1 bit
    w.se(0)  // slice_alpha_c0_offset_div2: 1 bit
    w.se(0)  // slice_beta_offset_div2: 1 bit
    return w
  }

  /// An IDR NAL unit of `length` bytes: header byte 0x65, the slice header,
  /// then 0xA5 filler (as CAVLC slice data would follow).
  static func idr(length: Int) -> [UInt8] {
    let header = EmulationPrevention.inserted(idrHeaderBits().bytes)
    return [0x65] + header + [UInt8](repeating: 0xA5, count: length - 1 - header.count)
  }

  static func sei(length: Int) -> [UInt8] { [0x06] + [UInt8](repeating: 0x5A, count: length - 1) }
}

/// Records the chains a fragment encryptor asks for and marks their bytes
/// (XOR 0xFF), so tests see exactly what would be encrypted.
final class RecordingCipher: CBCSChainCipher {
  private(set) var chains: [[Range<Int>]] = []

  func encryptChain(_ bytes: inout [UInt8], runs: [Range<Int>]) throws {
    chains.append(runs)
    for run in runs { for i in run { bytes[i] ^= 0xFF } }
  }
}
