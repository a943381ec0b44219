/// `video[].video_range` of an encoded rung.
extension ProfileLoader {
  /// `"sdr"`, `"pq"` or `"hlg"`. The HDR transfers need a 10-bit picture
  /// (HDR10 and ITU-R BT.2100 HLG are 10 or 12 bits), which hlspack encodes as
  /// HEVC Main 10 only.
  static func readVideoRange(_ r: inout FieldReader, codec: VideoCodec, profile: String?) throws -> VideoRange? {
    guard let text = try r.oneOf("video_range", ["sdr", "pq", "hlg"]) else { return nil }
    guard text != "sdr" else { return .sdr }
    guard codec == .hevc else {
      throw r.error(
        "video_range", "\"\(text)\" needs codec \"hevc\" (Main 10): hlspack encodes \(codec.rawValue) rungs as 8-bit SDR")
    }
    if let profile, profile != "main10" {
      throw r.error("video_range", "\"\(text)\" needs a 10-bit picture: set \"profile\" to \"main10\" or leave it out")
    }
    return text == "pq" ? .pq : .hlg
  }
}
