import Testing

@testable import HLSPackCore

/// AV1 sequence headers (AV1 specification §5.5) written bit by bit, and the
/// `av01` codec strings (AV1 Codec ISO Media File Format Binding §5) read from them.
@Suite struct AV1SequenceHeaderTests {
  /// Writes fields most significant bit first, padded with zero bits to a byte.
  struct BitWriter {
    var bits: [Bool] = []
    mutating func put(_ value: Int, _ count: Int) {
      for i in stride(from: count - 1, through: 0, by: -1) { bits.append(value >> i & 1 == 1) }
    }
    var bytes: [UInt8] {
      var padded = bits
      while padded.count % 8 != 0 { padded.append(false) }
      return stride(from: 0, to: padded.count, by: 8).map { start in
        padded[start..<start + 8].reduce(0) { $0 << 1 | ($1 ? 1 : 0) }
      }
    }
  }

  /// What SVT-AV1 writes for an 8-bit 640x360 stream: one operating point, no timing info.
  static var svtLike: [UInt8] {
    var w = BitWriter()
    w.put(0, 3); w.put(0, 1); w.put(0, 1)  // seq_profile, still_picture, reduced_still_picture_header
    w.put(0, 1); w.put(0, 1); w.put(0, 5)  // timing_info_present, initial_display_delay_present, operating_points_cnt_minus_1
    w.put(0, 12); w.put(8, 5); w.put(0, 1)  // operating_point_idc, seq_level_idx 8 (4.0), seq_tier
    w.put(9, 4); w.put(8, 4); w.put(639, 10); w.put(359, 9)  // frame size bits and maxima
    w.put(0, 1)  // frame_id_numbers_present_flag
    w.put(0b011, 3)  // use_128x128_superblock, enable_filter_intra, enable_intra_edge_filter
    w.put(0, 4); w.put(1, 1); w.put(0, 2)  // compound/warp/dual tools, enable_order_hint, jnt_comp, ref_frame_mvs
    w.put(1, 1); w.put(1, 1); w.put(6, 3)  // choose screen content tools, choose integer mv, order_hint_bits_minus_1
    w.put(0b011, 3)  // superres, cdef, restoration
    w.put(0, 1); w.put(0, 1); w.put(1, 1); w.put(1, 8); w.put(1, 8); w.put(1, 8)  // 8-bit, not mono, BT.709
    w.put(0, 1); w.put(0, 2); w.put(0, 1); w.put(0, 1)  // color_range, chroma_sample_position, separate_uv_delta_q, film grain
    return w.bytes
  }

  /// Profile 2, 10-bit, level 5.1 High tier, timing and decoder model info, two operating points.
  static var professional: [UInt8] {
    var w = BitWriter()
    w.put(2, 3); w.put(0, 1); w.put(0, 1)
    w.put(1, 1); w.put(1001, 32); w.put(60000, 32); w.put(1, 1); w.put(0b1, 1)  // timing_info, uvlc 0
    w.put(1, 1); w.put(9, 5); w.put(1001, 32); w.put(31, 5); w.put(31, 5)  // decoder_model_info
    w.put(1, 1); w.put(1, 5)  // initial_display_delay_present, two operating points
    for (level, tier) in [(13, 1), (9, 0)] {
      w.put(0x101, 12); w.put(level, 5); w.put(tier, 1)
      w.put(1, 1); w.put(77, 10); w.put(88, 10); w.put(1, 1)  // decoder model for this op: delays, low_delay_mode
      w.put(1, 1); w.put(3, 4)  // initial display delay for this op
    }
    w.put(11, 4); w.put(10, 4); w.put(1919, 12); w.put(1079, 11)
    w.put(1, 1); w.put(5, 4); w.put(2, 3)  // frame ids
    w.put(0b111, 3); w.put(0b1111, 4); w.put(0, 1)  // tools; no order hint
    w.put(0, 1); w.put(1, 1); w.put(0, 1); w.put(1, 1)  // force screen content 1, integer mv forced 1
    w.put(0b000, 3)
    w.put(1, 1); w.put(0, 1); w.put(0, 1); w.put(0, 1)  // high_bitdepth, twelve_bit 0, mono 0, no colour description
    w.put(1, 1); w.put(0, 1); w.put(1, 1)  // color_range, separate_uv_delta_q, film grain
    return w.bytes
  }

  /// A reduced still picture header: profile 1, sRGB (4:4:4, full range by definition).
  static var stillSRGB: [UInt8] {
    var w = BitWriter()
    w.put(1, 3); w.put(1, 1); w.put(1, 1); w.put(5, 5)
    w.put(7, 4); w.put(7, 4); w.put(255, 8); w.put(255, 8)
    w.put(0b000, 3); w.put(0b000, 3)
    w.put(0, 1); w.put(1, 1); w.put(1, 8); w.put(13, 8); w.put(0, 8)  // 8-bit, colour description: sRGB
    w.put(0, 1); w.put(0, 1)
    return w.bytes
  }

  @Test(arguments: [
    (svtLike, "av01.0.08M.08", "av01.0.08M.08.0.110.01.01.01.0"),
    (professional, "av01.2.13H.10", "av01.2.13H.10.0.100.02.02.02.1"),
    (stillSRGB, "av01.1.05M.08", "av01.1.05M.08.0.000.01.13.00.1"),
  ])
  func codecStringsComeFromTheHeader(payload: [UInt8], short: String, long: String) throws {
    let header = try AV1SequenceHeader(payload)
    #expect(header.codecString == short)
    #expect(header.codecFields.joined(separator: ".") == long)
    #expect(header.mismatch(declared: short.lowercased()) == nil)
    #expect(header.mismatch(declared: long.lowercased()) == nil)
  }

  @Test func aDeclaredEntryIsComparedFieldByField() throws {
    let header = try AV1SequenceHeader(Self.svtLike)
    #expect(header.mismatch(declared: "av01.0.09m.08")?.contains("level and tier \"09m\"") == true)
    #expect(header.mismatch(declared: "av01.0.08h.10")?.contains("bit depth \"10\"") == true)
    #expect(header.mismatch(declared: "av01.0.08m.08.0.110.01.01.01.1")?.contains("range \"1\"") == true)
    #expect(header.mismatch(declared: "av01.0.08m.08.0")?.contains("has 5 fields") == true)
  }

  @Test func aTruncatedHeaderIsAnErrorNamingTheField() {
    #expect(throws: MediaFormatError.self) { try AV1SequenceHeader(Array(Self.svtLike.prefix(4))) }
  }

  /// OBUs with size fields: a temporal delimiter, then the sequence header,
  /// as in a key frame's temporal unit; and the same header in an av1C.
  @Test func theHeaderIsFoundAmongOBUsAndInAnAV1C() throws {
    let payload = Self.svtLike
    let obus: [UInt8] = [0x12, 0x00, 0x0A, UInt8(payload.count)] + payload
    #expect(CodecString.av01(obus: obus) == "av01.0.08M.08")
    #expect(CodecString.av01(obus: [0x12, 0x00]) == nil)
    #expect(CodecString.av01(obus: [0x0A, 0x7F] + payload) == nil, "a size past the end")

    // marker+version, profile 0 level 8, tier 0 8-bit 4:2:0 (subsampling 1 1, position 0), no delay.
    let av1C: [UInt8] = [0x81, 0x08, 0x0C, 0x00] + obus.dropFirst(2)
    let configuration = try AV1CodecConfiguration(av1C)
    #expect(configuration.sequenceHeader == (try AV1SequenceHeader(payload)))
    #expect(configuration.codecString == "av01.0.08M.08")
    #expect(throws: MediaFormatError.self) { try AV1CodecConfiguration([0x01, 0x08, 0x0C, 0x00]) }
  }
}
