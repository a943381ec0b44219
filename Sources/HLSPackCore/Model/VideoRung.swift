import Foundation

/// The video codec of a rung.
public enum VideoCodec: String, Sendable, Equatable, CaseIterable {
  case h264
  /// libx265; tagged `hvc1` in fMP4 (Apple plays `hev1` with sound and no picture).
  case hevc
  /// libsvtav1 (SVT-AV1), in fMP4 only (`av01`).
  case av1
  /// No encoding: the source's video packets as they are, cut at its keyframes.
  case copy
}

public struct VideoRung: Sendable, Equatable {
  public var name: String
  public var width: Int
  public var height: Int
  public var bitrate: Int
  public var maxrate: Int?
  public var bufsize: Int?
  public var codec: VideoCodec
  /// Profile name as the encoder knows it (x264: `baseline`, `main`, `high`;
  /// x265: `main`; SVT-AV1: `main`); nil = encoder default.
  public var profile: String?
  /// Level as written in the profile (`"3.1"`); nil = chosen by the encoder.
  public var level: String?
  /// x264/x265 preset name; for AV1, SVT-AV1's preset number ("0" to "13").
  public var preset: String
  /// Output frame rate; nil keeps the source's.
  public var fps: FrameRate?
  /// Copy rungs only: this rendition's own pre-encoded source, instead of the asset's input.
  public var source: URL?
  /// A source of another shape: stretched to the rung, or padded.
  public var fit: PictureFit = .stretch
  /// The dynamic range the rung is coded for; nil keeps the source's. `.pq`
  /// or `.hlg` of an SDR source places its picture in that HDR signal (HEVC Main 10).
  public var videoRange: VideoRange?

  public init(
    name: String, width: Int, height: Int, bitrate: Int, maxrate: Int? = nil, bufsize: Int? = nil,
    codec: VideoCodec = .h264, profile: String? = nil, level: String? = nil, preset: String = "veryfast",
    fps: FrameRate? = nil, source: URL? = nil
  ) {
    self.name = name
    self.width = width
    self.height = height
    self.bitrate = bitrate
    self.maxrate = maxrate
    self.bufsize = bufsize
    self.codec = codec
    self.profile = profile
    self.level = level
    self.preset = preset
    self.fps = fps
    self.source = source
  }
}
