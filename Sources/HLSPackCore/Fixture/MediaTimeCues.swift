/// WebVTT subtitles for fixtures: one cue a second, each showing the media
/// time it is meant to appear at, so that a tester compares it with the
/// burned-in time (the two agree when the player places cues right).
public enum MediaTimeCues {
  public static func webVTT(seconds: Double) -> String {
    var text = "WEBVTT\n\n"
    let whole = Int(seconds.rounded(.down))
    for second in 0..<max(1, whole) {
      let end = min(Double(second + 1), seconds)
      text += "\(second + 1)\n\(timestamp(Double(second))) --> \(timestamp(end))\n"
      text += "subtitle cue at \(timestamp(Double(second)))\n\n"
    }
    return text
  }

  /// `hh:mm:ss.ttt` (RFC 8216bis and WebVTT both read it).
  static func timestamp(_ seconds: Double) -> String {
    let ms = Int((seconds * 1000).rounded())
    let pad = { (value: Int, width: Int) in String(repeating: "0", count: max(0, width - String(value).count)) + String(value) }
    return "\(pad(ms / 3_600_000, 2)):\(pad(ms / 60_000 % 60, 2)):\(pad(ms / 1000 % 60, 2)).\(pad(ms % 1000, 3))"
  }
}
