import HLSPackTestSupport

/// A Dolby Vision profile 8 RPU, written here for test sources: the
/// reference processing unit Dolby's single-layer streams carry in every
/// access unit as an HEVC NAL unit of type 62. Its fields are those of
/// profile 8.1 streams as FFmpeg's RPU parser (libavcodec/dovi_rpudec.c)
/// reads them: RPU type 2, format 18, identity reshaping curves (pivots
/// 0–1023, a first-order polynomial 0 + 1·x, no residual), BT.2020 YCbCr
/// to RGB and RGB to LMS matrices, PQ signal, and a level 1 extension block.
enum DolbyVisionRPU {
  /// The NAL unit: its header (type 62, layer 0, temporal id 1) and the RPU
  /// with emulation prevention bytes.
  static func nalUnit(sceneRefresh: Bool, sourcePQ: (min: Int, max: Int)) -> [UInt8] {
    [0x7C, 0x01] + EmulationPrevention.inserted(payload(sceneRefresh: sceneRefresh, sourcePQ: sourcePQ))
  }

  /// rpu_nal_prefix 25, rpu_data(), its CRC-32 (MPEG-2) and the 0x80 terminator.
  static func payload(sceneRefresh: Bool, sourcePQ: (min: Int, max: Int)) -> [UInt8] {
    var bits = BitWriter()
    // rpu_data_header(): type 2, format 18, VDR profile 1 level 0, sequence info.
    bits.put(2, 6)
    bits.put(18, 11)
    bits.put(1, 4)
    bits.put(0, 4)
    bits.put(1, 1)
    bits.put(0, 1)  // chroma_resampling_explicit_filter_flag
    bits.put(0, 2)  // coefficient_data_type: fixed point
    bits.ue(23)  // coefficient_log2_denom
    bits.put(1, 2)  // vdr_rpu_normalized_idc
    bits.put(0, 1)  // bl_video_full_range_flag
    bits.ue(2)  // bl_bit_depth_minus8
    bits.ue(2)  // el_bit_depth_minus8
    bits.ue(4)  // vdr_bit_depth_minus8
    bits.put(0, 1 + 3 + 1)  // spatial resampling, reserved, EL spatial resampling
    bits.put(1, 1)  // disable_residual_flag
    bits.put(1, 1)  // vdr_dm_metadata_present_flag
    bits.put(0, 1)  // use_prev_vdr_rpu_flag
    bits.ue(0)  // vdr_rpu_id
    bits.ue(0)  // mapping_color_space
    bits.ue(0)  // mapping_chroma_format_idc
    for _ in 0..<3 {
      bits.ue(0)  // num_pivots_minus2
      bits.put(0, 10)
      bits.put(1023, 10)
    }
    bits.ue(0)  // num_x_partitions_minus1
    bits.ue(0)  // num_y_partitions_minus1
    // vdr_rpu_data_payload(): per component one first-order polynomial, 0 + 1·x.
    for _ in 0..<3 {
      bits.ue(0)  // mapping_idc: polynomial
      bits.ue(0)  // poly_order_minus1
      bits.put(0, 1)  // linear_interp_flag
      for coefficient in [0, 1] {
        bits.se(coefficient)
        bits.put(0, 23)
      }
    }
    // vdr_dm_data_payload().
    bits.ue(0)  // affected_dm_metadata_id
    bits.ue(0)  // current_dm_metadata_id
    bits.ue(sceneRefresh ? 1 : 0)
    for value in [9574, 0, 13802, 9574, -1540, -5348, 9574, 17610, 0] { bits.put(value, 16) }
    for value in [16_777_216, 134_217_728, 134_217_728] { bits.put(value, 32) }
    for value in [7222, 8771, 390, 2654, 12430, 1300, 0, 422, 15962] { bits.put(value, 16) }
    bits.put(65535, 16)  // signal_eotf
    bits.put(0, 16 + 16 + 32)  // signal_eotf_param0..2
    bits.put(12, 5)  // signal_bit_depth
    bits.put(0, 2 + 2)  // signal colour space, chroma format
    bits.put(1, 2)  // signal_full_range_flag
    bits.put(sourcePQ.min, 12)
    bits.put(sourcePQ.max, 12)
    bits.put(42, 10)  // source_diagonal
    // One DM v1 extension block, level 1 (min, max, average PQ), 5 bytes.
    bits.ue(1)
    bits.align()
    bits.ue(5)
    bits.put(1, 8)
    bits.put(0, 12)
    bits.put(2081, 12)
    bits.put(1229, 12)
    bits.put(0, 4)
    bits.align()
    let body = bits.bytes
    let crc = crc32MPEG2(body)
    return [0x19] + body + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF), 0x80]
  }

  /// CRC-32/MPEG-2: polynomial 0x04C11DB7, not reflected, initial all ones.
  static func crc32MPEG2(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte) << 24
      for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? crc << 1 ^ 0x04C1_1DB7 : crc << 1 }
    }
    return crc
  }

}

/// Writes bits most significant first, with Exp-Golomb codes (ITU-T H.265 §9.2).
struct BitWriter {
  private(set) var bytes: [UInt8] = []
  private var used = 0

  /// The low `count` bits of `value` (two's complement for negatives).
  mutating func put(_ value: Int, _ count: Int) {
    for shift in stride(from: count - 1, through: 0, by: -1) {
      if used == 0 { bytes.append(0) }
      if value >> shift & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(used) }
      used = (used + 1) % 8
    }
  }

  mutating func ue(_ value: Int) {
    let code = value + 1
    let length = Int.bitWidth - code.leadingZeroBitCount
    put(0, length - 1)
    put(code, length)
  }

  mutating func se(_ value: Int) { ue(value > 0 ? 2 * value - 1 : -2 * value) }

  mutating func align() { if used != 0 { put(0, 8 - used) } }
}
