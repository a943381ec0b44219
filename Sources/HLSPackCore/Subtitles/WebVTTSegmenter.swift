/// Cuts cues into WebVTT segments on the video segments' boundaries. Every
/// segment holds every cue shown during it (RFC 8216 §3.5), so a cue that
/// spans a boundary is in both. Cue times are written on the media clock
/// (source time + the media's start) and X-TIMESTAMP-MAP maps that same
/// instant, so clients that apply the map (Apple) and clients that ignore it
/// (FFmpeg) place cues alike.
public struct WebVTTSegmenter: Sendable {
  /// The media timestamp (90 kHz) of source time 0.
  public var originTicks: Int64

  public init(originTicks: Int64) {
    self.originTicks = originTicks
  }

  /// One WebVTT document per segment; `boundaries` are the segments' start
  /// times and the end of the last one, in source milliseconds. Every block,
  /// the last cue too, ends with a blank line: WebVTT lets the file end after
  /// the cue text, but GStreamer's subparse then drops the cue.
  public func segments(_ cues: [SubtitleCue], boundaries: [Int64]) -> [String] {
    let shift = originTicks / 90
    return zip(boundaries, boundaries.dropFirst()).map { start, end in
      var text = "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:\(originTicks),LOCAL:\(SubtitleParser.format(shift))\n\n"
      for cue in cues where cue.start < end && cue.end > start {
        let identifier = cue.identifier.isEmpty ? "" : "\(cue.identifier)\n"
        let settings = cue.settings.isEmpty ? "" : " " + cue.settings
        text += "\(identifier)\(SubtitleParser.format(cue.start + shift)) --> \(SubtitleParser.format(cue.end + shift))\(settings)\n\(cue.text)\n\n"
      }
      return text
    }
  }
}
