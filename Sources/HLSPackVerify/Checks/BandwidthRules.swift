import HLSPackCore

/// BANDWIDTH and AVERAGE-BANDWIDTH against the bytes a client downloads,
/// measured by `BandwidthMeter` and summed over a variant's renditions by
/// `HeaviestCombination`: the packager's own meter and rule.
public enum BandwidthRules {
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
    let compared = declaredAgainstMeasured(
      variant, peak: measuredPeak, average: measuredAverage, file: file,
      rules: (VerifyRules.bandwidthBelowPeak, VerifyRules.averageBandwidthOff), measured: "measured")
    var findings = compared.belowPeak.map { [$0] } ?? []
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
    return findings + (compared.averageOff.map { [$0] } ?? [])
  }

  /// An EXT-X-I-FRAME-STREAM-INF against the rates of its I-frame playlist:
  /// the tag's BANDWIDTH and AVERAGE-BANDWIDTH mean what they mean on
  /// EXT-X-STREAM-INF (RFC 8216bis §4.4.6.3), and the segments of an I-frame
  /// playlist are its I-frames, each its byte range lasting until the next
  /// (§4.4.3.6), measured by the same meter over the same window (§4.1). The
  /// RFC allows no BANDWIDTH below the peak, so the slack is the one of
  /// `check`. A VIDEO group may hold heavier renditions than the variant's own
  /// playlist, so with one only BANDWIDTH is judged, against a peak it must reach anyway.
  public static func checkIFrame(
    _ variant: VerifiedMultivariantPlaylist.Variant, measured: HeaviestCombination.Rates, file: String
  ) -> [Finding] {
    let compared = declaredAgainstMeasured(
      variant, peak: Double(measured.peak), average: variant.value("VIDEO") == nil ? Double(measured.average) : 0,
      file: file, rules: (VerifyRules.iFrameBandwidthOff, VerifyRules.iFrameBandwidthOff), measured: "measured I-frame")
    return [compared.belowPeak, compared.averageOff].compactMap { $0 }
  }

  /// BANDWIDTH below the measured peak (past `roundingSlack`), and
  /// AVERAGE-BANDWIDTH more than 10 % off the measured average (not judged
  /// when `average` is 0); `measured` names the measure in the details.
  private static func declaredAgainstMeasured(
    _ variant: VerifiedMultivariantPlaylist.Variant, peak: Double, average: Double, file: String,
    rules: (belowPeak: VerifyRule, averageOff: VerifyRule), measured: String
  ) -> (belowPeak: Finding?, averageOff: Finding?) {
    var result: (belowPeak: Finding?, averageOff: Finding?) = (nil, nil)
    if let declared = variant.bandwidth, Double(declared) * roundingSlack < peak {
      result.belowPeak = Finding(
        rules.belowPeak, file: file, line: variant.line, segment: variant.uri,
        detail: "BANDWIDTH=\(declared) < \(measured) peak \(PlaylistNumber.whole(peak, .up)) bit/s")
    }
    if let declared = variant.averageBandwidth, average > 0, abs(Double(declared) - average) > 0.1 * average {
      result.averageOff = Finding(
        rules.averageOff, file: file, line: variant.line, segment: variant.uri,
        detail: "AVERAGE-BANDWIDTH=\(declared), \(measured) \(PlaylistNumber.whole(average)) bit/s")
    }
    return result
  }
}
