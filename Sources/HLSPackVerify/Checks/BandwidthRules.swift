import HLSPackCore

/// BANDWIDTH and AVERAGE-BANDWIDTH against the bytes a client downloads,
/// measured by `BandwidthMeter`, the packager's own meter.
public enum BandwidthRules {
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

  /// How far a measured peak may exceed BANDWIDTH before it is a finding.
  /// An hlspack package measures exactly what its packager declared (the
  /// meter gets its ticks back from EXTINF). Another packager's durations,
  /// on another clock and written to the microsecond, reach the meter rounded
  /// to a 90 kHz tick: a few parts per million of a window of at least half a
  /// target duration, which 0.01 % absorbs.
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
