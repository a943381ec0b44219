/// MPEG-TS time: every timestamp hlspack records is in 90 kHz ticks, so segment
/// durations and playlist EXTINF values come from exact integers.
public enum MediaClock {
  public static let ticksPerSecond: Int64 = 90_000
  /// Where source time 0, the first picture, sits on this clock: 1 s in, so
  /// that B-frame DTS and AAC priming never go negative; the same for every
  /// rendition, so segments align.
  public static let timelineOffset: Int64 = 90_000

  public static func seconds(_ ticks: Int64) -> Double { Double(ticks) / Double(ticksPerSecond) }

  /// The smallest whole number of seconds that is >= `ticks`.
  public static func ceilSeconds(_ ticks: Int64) -> Int64 {
    (ticks + ticksPerSecond - 1) / ticksPerSecond
  }
}
