/// Segment bit rates as RFC 8216bis §4.1 defines them, over the bytes a client
/// downloads (after encryption and padding).
public enum BandwidthMeter {
  public struct Sample: Sendable, Equatable {
    public var bytes: Int
    public var durationTicks: Int64

    public init(bytes: Int, durationTicks: Int64) {
      self.bytes = bytes
      self.durationTicks = durationTicks
    }
  }

  /// The peak segment bit rate: the largest rate of any contiguous run of
  /// segments whose total duration lies in [0.5·TD, 1.5·TD + 0.5 s]. When no run
  /// qualifies (a presentation shorter than half a target duration), the whole
  /// presentation's rate. Rounded up to whole bit/s.
  public static func peak(_ samples: [Sample], targetDuration: Int64) -> Int {
    let tps = MediaClock.ticksPerSecond
    // Bounds in ticks, doubled to keep 0.5 exact: 2·window ∈ [TD, 3·TD + 1] seconds.
    let low = targetDuration * tps
    let high = (3 * targetDuration + 1) * tps
    var best: (bits: Int64, ticks: Int64)?
    for start in samples.indices {
      var bits: Int64 = 0
      var ticks: Int64 = 0
      for sample in samples[start...] {
        bits += Int64(sample.bytes) * 8
        ticks += sample.durationTicks
        if 2 * ticks > high { break }
        if 2 * ticks >= low, ticks > 0, best.map({ bits * $0.ticks > $0.bits * ticks }) ?? true {
          best = (bits, ticks)
        }
      }
    }
    guard let best else { return average(samples) }
    return rate(bits: best.bits, ticks: best.ticks)
  }

  /// Total bits over total duration, rounded up.
  public static func average(_ samples: [Sample]) -> Int {
    let bits = samples.reduce(Int64(0)) { $0 + Int64($1.bytes) * 8 }
    let ticks = samples.reduce(Int64(0)) { $0 + $1.durationTicks }
    return ticks > 0 ? rate(bits: bits, ticks: ticks) : 0
  }

  static func rate(bits: Int64, ticks: Int64) -> Int {
    let scaled = bits * MediaClock.ticksPerSecond
    return Int((scaled + ticks - 1) / ticks)
  }
}
