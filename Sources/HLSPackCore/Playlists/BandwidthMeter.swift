/// Segment bit rates as RFC 8216bis §4.1 defines them, over the bytes a client
/// downloads (after encryption and padding). The one measure of BANDWIDTH and
/// AVERAGE-BANDWIDTH (RFC 8216bis §4.4.6.2): the packager declares what it
/// returns and `verify` checks declared values against it, so the two cannot
/// disagree on what the peak is.
public enum BandwidthMeter {
  /// One segment as a client fetches it: its size and its duration in 90 kHz ticks.
  public struct Sample: Sendable, Equatable {
    public var bytes: Int
    public var durationTicks: Int64

    public init(bytes: Int, durationTicks: Int64) {
      self.bytes = bytes
      self.durationTicks = durationTicks
    }

    /// A segment as a playlist describes it, by its EXTINF in seconds. hlspack
    /// writes EXTINF to the microsecond from exact ticks (`MediaPlaylist.formatDuration`),
    /// and a tick (11.1 µs) is coarser than that, so rounding to the nearest tick
    /// gives back the very ticks the packager measured. A negative or non-finite
    /// EXTINF counts as 0; a huge one saturates rather than trapping.
    public init(bytes: Int, seconds: Double) {
      let ticks = (seconds * Double(MediaClock.ticksPerSecond)).rounded()
      self.bytes = bytes
      // Double(Int64.max) rounds up to 2^63, which Int64 cannot hold: stay below it.
      self.durationTicks = ticks.isNaN || ticks <= 0 ? 0 : ticks >= 0x1p62 ? 1 << 62 : Int64(ticks)
    }
  }

  /// The peak segment bit rate: the largest rate of any contiguous run of
  /// segments whose total duration lies in [0.5·TD, 1.5·TD + 0.5 s]. RFC
  /// 8216bis §4.1: "between 0.5 times the Target Duration and 1.5 times the
  /// Target Duration plus 0.5 seconds (since media segments may exceed the
  /// Target Duration by up to 0.5 seconds)". RFC 8216 (2017) had no "+ 0.5 s";
  /// for segments whose EXTINF rounds to at most TD, its window has a run
  /// exactly when this one does, and this one holds all of its runs, so the
  /// peak here is never below that RFC's. When no run qualifies (a
  /// presentation shorter than half a target duration), the whole
  /// presentation's rate. Rounded up to whole bit/s; saturates at `Int.max`.
  public static func peak(_ samples: [Sample], targetDuration: Int64) -> Int {
    let tps = Int128(MediaClock.ticksPerSecond)
    // Bounds in ticks, doubled to keep 0.5 exact: 2·window ∈ [TD, 3·TD + 1] seconds.
    let low = Int128(targetDuration) * tps
    let high = (3 * Int128(targetDuration) + 1) * tps
    var best: Int128?
    for start in samples.indices {
      var bits: Int128 = 0
      var ticks: Int128 = 0
      for sample in samples[start...] {
        bits += Int128(sample.bytes) * 8
        ticks += Int128(sample.durationTicks)
        if 2 * ticks > high { break }
        // ceil is monotonic: the largest rounded-up rate is the rounded-up largest rate.
        if 2 * ticks >= low, ticks > 0 { best = max(best ?? 0, rate(bits: bits, ticks: ticks)) }
      }
    }
    guard let best else { return average(samples) }
    return saturated(best)
  }

  /// Total bits over total duration, rounded up; 0 for no duration.
  public static func average(_ samples: [Sample]) -> Int {
    let bits = samples.reduce(Int128(0)) { $0 + Int128($1.bytes) * 8 }
    let ticks = samples.reduce(Int128(0)) { $0 + Int128($1.durationTicks) }
    return ticks > 0 ? saturated(rate(bits: bits, ticks: ticks)) : 0
  }

  /// 128-bit, so that sizes and durations read from someone else's package
  /// (a server's Content-Length, a playlist's EXTINF) cannot overflow.
  private static func rate(bits: Int128, ticks: Int128) -> Int128 {
    (bits * Int128(MediaClock.ticksPerSecond) + ticks - 1) / ticks
  }

  private static func saturated(_ rate: Int128) -> Int {
    rate > Int128(Int.max) ? Int.max : Int(rate)
  }
}
