/// What a sequence parameter set (H.264 or HEVC) says about the pictures it
/// governs: their cropped size, the frame rate when the VUI carries timing,
/// and the transfer characteristics when the VUI carries a colour
/// description. `hlspack verify` compares them with RESOLUTION, FRAME-RATE
/// and VIDEO-RANGE.
public struct SPSPicture: Equatable, Sendable {
  public var width: Int
  public var height: Int
  public var frameRate: Double?
  /// transfer_characteristics (ITU-T H.264 and H.265 Annex E, Table E-4;
  /// ITU-T H.273); nil when the SPS has no VUI or no colour description.
  public var transferCharacteristics: Int?

  /// The dynamic range the stream is coded for: without a colour
  /// description, transfer_characteristics is inferred "unspecified" (E.2.1), so SDR.
  public var videoRange: VideoRange { transferCharacteristics.map(VideoRange.init) ?? .sdr }

  /// The picture of the first SPS among `nalUnits` (headers included):
  /// nal_unit_type 7 in H.264 (Table 7-1), 33 in HEVC (Table 7-1).
  package static func firstSPS<NALUnits: Sequence>(in nalUnits: NALUnits, hevc: Bool) -> SPSPicture?
  where NALUnits.Element == ArraySlice<UInt8> {
    for nal in nalUnits {
      guard let header = nal.first else { continue }
      if hevc, header >> 1 & 0x3F == 33 { return SPSPicture(hevcSPS: nal) }
      if !hevc, header & 0x1F == 7 { return SPSPicture(h264SPS: nal) }
    }
    return nil
  }

  /// The VUI syntax that H.264 (E.1.1) and HEVC (E.2.1) share, from
  /// aspect_ratio_info_present_flag through the chroma sample locations;
  /// returns transfer_characteristics when the colour description is present.
  static func readVUIColour(_ r: inout NALBitReader) throws -> Int? {
    if try r.bit("aspect_ratio_info_present_flag") {
      // Extended_SAR (255) carries sar_width and sar_height.
      if try r.bits(8, "aspect_ratio_idc") == 255 { _ = try r.bits(32, "sar_width, sar_height") }
    }
    if try r.bit("overscan_info_present_flag") { _ = try r.bit("overscan_appropriate_flag") }
    var transfer: Int?
    if try r.bit("video_signal_type_present_flag") {
      _ = try r.bits(4, "video_format, video_full_range_flag")
      if try r.bit("colour_description_present_flag") {
        _ = try r.bits(8, "colour_primaries")
        transfer = Int(try r.bits(8, "transfer_characteristics"))
        _ = try r.bits(8, "matrix_coefficients")
      }
    }
    if try r.bit("chroma_loc_info_present_flag") {
      _ = try r.ue("chroma_sample_loc_type_top_field")
      _ = try r.ue("chroma_sample_loc_type_bottom_field")
    }
    return transfer
  }
}
