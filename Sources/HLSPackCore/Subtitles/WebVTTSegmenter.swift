/// Cuts cues into WebVTT segments on the video segments' boundaries. Every
/// segment holds every cue shown during it (RFC 8216 §3.5), so a cue that
/// spans a boundary is in both. Cue times are the presentation times (the
/// source's, from 0 at the first picture) and X-TIMESTAMP-MAP ties LOCAL 0 to
/// that picture's timestamp, as Shaka Packager writes it. Clients that apply
/// the map (RFC 8216bis §3.1.4) place cues alike either way; of the clients
/// measured that ignore it, VLC 3.0 and yt-dlp time cues from the first
/// picture (cues on the media clock came 1 s late there) and FFmpeg 5.1 and
/// 8.1 take cue times for MPEG-TS timestamps (cues at presentation times come
/// 1 s early there). The two agree only when the first picture's PTS is 0,
/// which B-frame decode times, AAC priming and the PCR's lead rule out
/// without wrapping the timestamps (docs/players.md).
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
    zip(boundaries, boundaries.dropFirst()).map { start, end in
      var text = "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:\(originTicks),LOCAL:\(SubtitleParser.format(0))\n\n"
      for cue in cues where cue.start < end && cue.end > start {
        let identifier = cue.identifier.isEmpty ? "" : "\(cue.identifier)\n"
        let settings = cue.settings.isEmpty ? "" : " " + cue.settings
        text +=
          "\(identifier)\(SubtitleParser.format(cue.start)) --> \(SubtitleParser.format(cue.end))\(settings)\n\(cue.text)\n\n"
      }
      return text
    }
  }
}
