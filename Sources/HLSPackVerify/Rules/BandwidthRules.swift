import HLSPackCore

/// BANDWIDTH and AVERAGE-BANDWIDTH against the bytes a client downloads.
public enum BandwidthRules {
  /// One segment as a client fetches it: its size on the server and its EXTINF.
  public struct Sample: Sendable, Equatable {
    public var bytes: Int
    public var seconds: Double

    public init(bytes: Int, seconds: Double) {
      self.bytes = bytes
      self.seconds = seconds
    }
  }

  /// The peak segment bit rate of RFC 8216bis §4.1: the largest bit rate of
  /// any contiguous run of segments lasting 0.5 to 1.5 target durations. A
  /// presentation with no such run (shorter than half a target duration) is
  /// measured whole.
  public static func peak(_ samples: [Sample], targetDuration: Int) -> Double {
    let low = 0.5 * Double(targetDuration), high = 1.5 * Double(targetDuration)
    var best: Double?
    for start in samples.indices {
      var bits = 0.0, seconds = 0.0
      for sample in samples[start...] {
        bits += Double(sample.bytes) * 8
        seconds += sample.seconds
        if seconds > high { break }
        if seconds >= low, seconds > 0 { best = max(best ?? 0, bits / seconds) }
      }
    }
    return best ?? average(samples)
  }

  /// Total bits over total duration.
  public static func average(_ samples: [Sample]) -> Double {
    let seconds = samples.reduce(0) { $0 + $1.seconds }
    return seconds > 0 ? samples.reduce(0) { $0 + Double($1.bytes) * 8 } / seconds : 0
  }

  /// The peak and average of a variant's heaviest playable combination
  /// (RFC 8216bis §4.4.6.2): its own media playlist and, for each rendition
  /// group it names, the member that adds the most. A playlist is fetched once
  /// however many roles it plays (FFmpeg's audio-only variant is also its own
  /// AUDIO group's rendition), so one already counted adds nothing. Peak and
  /// average are maximised each on its own. nil when the variant's playlist or
  /// a member of a group cannot be measured. `rates`: by playlist path.
  public static func heaviestCombination(
    variant: String, groups: [[String]], rates: (String) -> (peak: Double, average: Double)?
  ) -> (peak: Double, average: Double)? {
    guard let own = rates(variant) else { return nil }
    var peak = own.peak, average = own.average
    var counted: (peak: Set<String>, average: Set<String>) = ([variant], [variant])
    for members in groups where !members.isEmpty {
      var measured: [(path: String, peak: Double, average: Double)] = []
      for path in members {
        guard let found = rates(path) else { return nil }
        measured.append((path, found.peak, found.average))
      }
      let heaviestPeak = measured.max { added($0.peak, $0.path, counted.peak) < added($1.peak, $1.path, counted.peak) }
      let heaviestAverage = measured.max {
        added($0.average, $0.path, counted.average) < added($1.average, $1.path, counted.average)
      }
      if let heaviestPeak {
        peak += added(heaviestPeak.peak, heaviestPeak.path, counted.peak)
        counted.peak.insert(heaviestPeak.path)
      }
      if let heaviestAverage {
        average += added(heaviestAverage.average, heaviestAverage.path, counted.average)
        counted.average.insert(heaviestAverage.path)
      }
    }
    return (peak, average)
  }

  private static func added(_ rate: Double, _ path: String, _ counted: Set<String>) -> Double {
    counted.contains(path) ? 0 : rate
  }

  /// EXTINF is written to a microsecond or coarser, so a rate measured over
  /// it can exceed the packager's exact one by that much: 0.01 % absorbs it.
  static let roundingSlack = 1.0001

  /// `measuredPeak` and `measuredAverage` are the largest sums over the
  /// variant's playable combinations of renditions (RFC 8216bis §4.4.6.2).
  public static func check(
    _ variant: VerifiedMultivariantPlaylist.Variant, measuredPeak: Double, measuredAverage: Double, file: String
  ) -> [Finding] {
    var findings: [Finding] = []
    if let declared = variant.bandwidth, Double(declared) * roundingSlack < measuredPeak {
      findings.append(
        Finding(
          VerifyRules.bandwidthBelowPeak, file: file, line: variant.line, segment: variant.uri,
          detail: "BANDWIDTH=\(declared) < measured peak \(PlaylistNumber.whole(measuredPeak, .up)) bit/s"))
    }
    if let declared = variant.bandwidth, measuredPeak > 0, Double(declared) > 1.1 * measuredPeak {
      findings.append(
        Finding(
          VerifyRules.bandwidthAbovePeak, file: file, line: variant.line, segment: variant.uri,
          detail: "BANDWIDTH=\(declared) > measured peak \(PlaylistNumber.whole(measuredPeak, .up)) bit/s + 10%"))
    }
    if measuredAverage > 0, measuredPeak > 2 * measuredAverage {
      findings.append(
        Finding(
          VerifyRules.peakOverTwiceAverage, file: file, line: variant.line, segment: variant.uri,
          detail:
            "measured peak \(PlaylistNumber.whole(measuredPeak, .up)) bit/s, average \(PlaylistNumber.whole(measuredAverage)) bit/s"
        ))
    }
    if let declared = variant.averageBandwidth, measuredAverage > 0,
      abs(Double(declared) - measuredAverage) > 0.1 * measuredAverage
    {
      findings.append(
        Finding(
          VerifyRules.averageBandwidthOff, file: file, line: variant.line, segment: variant.uri,
          detail: "AVERAGE-BANDWIDTH=\(declared), measured \(PlaylistNumber.whole(measuredAverage)) bit/s"))
    }
    return findings
  }
}
