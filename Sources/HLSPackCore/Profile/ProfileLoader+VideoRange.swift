/// `video[].video_range` of an encoded rung.
extension ProfileLoader {
  /// `"sdr"` or `"pq"`. PQ needs a 10-bit picture (SMPTE ST 2084 is defined
  /// for 10 and 12 bits in HDR10), which hlspack encodes as HEVC Main 10 only.
  static func readVideoRange(_ r: inout FieldReader, codec: VideoCodec, profile: String?) throws -> VideoRange? {
    guard let text = try r.oneOf("video_range", ["sdr", "pq"]) else { return nil }
    guard text == "pq" else { return .sdr }
    guard codec == .hevc else {
      throw r.error(
        "video_range", "\"pq\" needs codec \"hevc\" (Main 10): hlspack encodes \(codec.rawValue) rungs as 8-bit SDR")
    }
    if let profile, profile != "main10" {
      throw r.error("video_range", "\"pq\" needs a 10-bit picture: set \"profile\" to \"main10\" or leave it out")
    }
    return .pq
  }
}
