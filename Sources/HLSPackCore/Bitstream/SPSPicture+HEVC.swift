/// The picture of an HEVC sequence parameter set: its size cropped to the
/// conformance window (ITU-T H.265 §7.4.3.2.1) and, from the VUI (Annex E.2.1),
/// its frame rate and transfer characteristics.
extension SPSPicture {
  /// Reads on from strong_intra_smoothing_enabled_flag, which follows
  /// sps_temporal_mvp_enabled_flag (§7.3.2.2.1), to the VUI's timing.
  /// `conformanceWindow`: the left, right, top and bottom offsets.
  init(
    hevcReading r: inout NALBitReader, codedWidth: Int, codedHeight: Int, conformanceWindow window: [Int],
    chromaFormat: Int
  ) throws {
    // The offsets count chroma samples: SubWidthC and SubHeightC (Table 6-1).
    let subWidth = chromaFormat == 1 || chromaFormat == 2 ? 2 : 1
    let subHeight = chromaFormat == 1 ? 2 : 1
    width = codedWidth - subWidth * (window[0] + window[1])
    height = codedHeight - subHeight * (window[2] + window[3])
    frameRate = nil
    transferCharacteristics = nil
    _ = try r.bit("strong_intra_smoothing_enabled_flag")
    guard try r.bit("vui_parameters_present_flag") else { return }
    transferCharacteristics = try Self.readVUIColour(&r)
    _ = try r.bit("neutral_chroma_indication_flag")
    let fieldSequence = try r.bit("field_seq_flag")
    _ = try r.bit("frame_field_info_present_flag")
    if try r.bit("default_display_window_flag") {
      for side in ["left", "right", "top", "bottom"] { _ = try r.ue("def_disp_win_\(side)_offset") }
    }
    guard try r.bit("vui_timing_info_present_flag") else { return }
    let unitsInTick = try r.bits(32, "vui_num_units_in_tick")
    let timeScale = try r.bits(32, "vui_time_scale")
    // A clock tick is one picture (E.3.1), a field when field_seq_flag is set.
    if unitsInTick > 0, timeScale > 0 {
      frameRate = Double(timeScale) / Double(unitsInTick) / (fieldSequence ? 2 : 1)
    }
  }

  /// The picture of the HEVC SPS `nal` (one NAL unit, 2-byte header included).
  public init?(hevcSPS nal: ArraySlice<UInt8>) {
    let bytes = Array(nal)
    guard let sps = try? HEVCSPS(bytes, 0..<bytes.count), let picture = sps.picture else { return nil }
    self = picture
  }
}
