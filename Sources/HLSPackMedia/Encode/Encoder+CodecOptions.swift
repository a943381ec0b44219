internal import CFFmpeg
import Foundation
import HLSPackCore

/// Each video encoder's own options: what makes its keyframes land where
/// the rung's segments start, and its share of the machine.
extension Encoder {
  static func encoderName(_ rung: VideoRung) throws -> String {
    switch rung.codec {
    case .h264: "libx264"
    case .hevc: "libx265"
    case .av1: "libsvtav1"
    case .copy: throw MediaError("rung \(rung.name) copies its source and has no encoder")
    }
  }

  func setCodecOptions(rung: VideoRung, bitExact: Bool, threads: Int, hdr: HDRMetadata?) throws {
    let priv = ctx.pointee.priv_data
    if rung.codec == .av1 {
      try setSVTAV1Options(rung: rung, threads: bitExact ? 1 : threads)
      return
    }
    try setOption(priv, "preset", rung.preset)
    if let profile = rung.profile ?? (hdr == nil ? nil : "main10") { try setOption(priv, "profile", profile) }
    try setOption(priv, "forced-idr", 1)
    switch rung.codec {
    case .h264:
      if let level = rung.level { try setOption(priv, "level", level) }
      try setOption(priv, "x264-params", "scenecut=0:open-gop=0")
    case .av1, .copy:
      break
    case .hevc:
      var params = "scenecut=0:open-gop=0:log-level=error"
      if let level = rung.level { params += ":level-idc=\(level)" }
      // The mastering display and content light SEI of the source (x265 sends them with every IDR).
      params += hdr?.x265Parameters ?? ""
      // x265 sizes its own thread pool from the machine, not from thread_count:
      // a batch job's share of the cores is given to it as its pool size.
      if bitExact {
        params += ":frame-threads=1:pools=none"
      } else if threads > 0 {
        params += ":pools=\(threads)"
      }
      try setOption(priv, "x265-params", params)
    }
  }

  /// SVT-AV1 writes its own banner and settings to standard error at its
  /// default log level (info); warnings and errors still come through. Its
  /// level is read from the environment when an encoder starts, and a level
  /// the user set is kept.
  private static let quietSVTAV1: Void = { setenv("SVT_LOG", "2", 0) }()

  /// libsvtav1 (FFmpeg 5.1, SVT-AV1 1.4): the rung's preset number, its
  /// bitrate as VBR (FFmpeg sets rate control mode 1 when no cap equals the
  /// bitrate), Main profile (8-bit 4:2:0), and a key frame every `gop_size`
  /// frames only: FFmpeg 5.1 passes SVT-AV1 no picture types, so the frames
  /// the caller marks I are not forced, and the caller picks a GOP that
  /// divides its segments. Closed GOPs (SVT-AV1's default key frames) and no
  /// scene-change key frames (`scd=0`), so every rung cuts at the same
  /// times. SVT-AV1 ignores `thread_count`: `lp` bounds the logical
  /// processors it uses (1 for a bit-exact run: its output depends on it).
  private func setSVTAV1Options(rung: VideoRung, threads: Int) throws {
    _ = Self.quietSVTAV1
    let priv = ctx.pointee.priv_data
    try setOption(priv, "preset", rung.preset)
    ctx.pointee.profile = FF_PROFILE_AV1_MAIN
    var params = "scd=0"
    if threads > 0 { params += ":lp=\(threads)" }
    try setOption(priv, "svtav1-params", params)
  }
}
