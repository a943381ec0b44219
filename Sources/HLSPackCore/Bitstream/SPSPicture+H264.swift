/// The picture of an H.264 sequence parameter set: its cropped size (ITU-T
/// H.264 §7.4.2.1.1, frame_crop_*_offset) and, from the VUI, its frame rate
/// (Annex E.2.1, time_scale and num_units_in_tick) and transfer characteristics.
extension SPSPicture {
  /// Reads on from frame_mbs_only_flag to the VUI's timing information.
  init(
    h264Reading r: inout NALBitReader, widthInMbs: Int, heightInMapUnits: Int, chromaFormat: Int,
    separateColourPlane: Bool, frameMbsOnly: Bool
  ) throws {
    if !frameMbsOnly { _ = try r.bit("mb_adaptive_frame_field_flag") }
    _ = try r.bit("direct_8x8_inference_flag")
    var crop = (left: 0, right: 0, top: 0, bottom: 0)
    if try r.bit("frame_cropping_flag") {
      crop.left = try r.ue("frame_crop_left_offset", max: 1 << 16)
      crop.right = try r.ue("frame_crop_right_offset", max: 1 << 16)
      crop.top = try r.ue("frame_crop_top_offset", max: 1 << 16)
      crop.bottom = try r.ue("frame_crop_bottom_offset", max: 1 << 16)
    }
    // CropUnitX/Y (equations 7-19 to 7-22): chroma subsampling, and frame vs field.
    let monochromeOrSeparate = chromaFormat == 0 || separateColourPlane
    let subWidth = monochromeOrSeparate || chromaFormat == 3 ? 1 : 2
    let subHeight = monochromeOrSeparate || chromaFormat != 1 ? 1 : 2
    let fieldFactor = frameMbsOnly ? 1 : 2
    width = widthInMbs * 16 - subWidth * (crop.left + crop.right)
    height = fieldFactor * heightInMapUnits * 16 - subHeight * fieldFactor * (crop.top + crop.bottom)
    frameRate = nil
    transferCharacteristics = nil
    guard try r.bit("vui_parameters_present_flag") else { return }
    transferCharacteristics = try Self.readVUIColour(&r)
    guard try r.bit("timing_info_present_flag") else { return }
    let unitsInTick = try r.bits(32, "num_units_in_tick")
    let timeScale = try r.bits(32, "time_scale")
    // time_scale / (2 × num_units_in_tick): a frame is two field ticks (E.2.1).
    if unitsInTick > 0, timeScale > 0 { frameRate = Double(timeScale) / (2 * Double(unitsInTick)) }
  }

  /// The picture of the H.264 SPS `nal` (one NAL unit, header byte included).
  public init?(h264SPS nal: ArraySlice<UInt8>) {
    let bytes = Array(nal)
    guard let sps = try? H264SPS(bytes, 0..<bytes.count), let picture = sps.picture else { return nil }
    self = picture
  }
}
