import HLSPackTestSupport
import Testing

@testable import HLSPackCore

private typealias Sample = BandwidthMeter.Sample

private func samples(seconds: [Int64], bytes: [Int]) -> [Sample] {
  zip(seconds, bytes).map { Sample(bytes: $1, durationTicks: $0 * 90_000) }
}

/// RFC 8216bis §4.1 written out the slow, obvious way: try every contiguous
/// run, keep those whose duration lies in [TD/2, 1.5·TD + 0.5 s], and take the
/// largest rate. ceil is monotonic, so the max of the rounded-up rates equals
/// the rounded-up max rate.
private func referencePeak(_ s: [Sample], targetDuration td: Int64) -> Int {
  var best: Int?
  for i in s.indices {
    for j in i..<s.count {
      let ticks = s[i...j].reduce(0) { $0 + $1.durationTicks }
      let bits = s[i...j].reduce(0) { $0 + Int64($1.bytes) * 8 }
      // In half-seconds of 90 kHz ticks, to stay in integers: TD/2 <= d <= 1.5·TD + 0.5.
      guard ticks > 0, 2 * ticks >= td * 90_000, 2 * ticks <= (3 * td + 1) * 90_000 else { continue }
      best = max(best ?? 0, Int(ceilDiv(bits * 90_000, ticks)))
    }
  }
  return best ?? referenceAverage(s)
}

private func referenceAverage(_ s: [Sample]) -> Int {
  let ticks = s.reduce(0) { $0 + $1.durationTicks }
  let bits = s.reduce(0) { $0 + Int64($1.bytes) * 8 }
  return ticks == 0 ? 0 : Int(ceilDiv(bits * 90_000, ticks))
}

private func ceilDiv(_ a: Int64, _ b: Int64) -> Int64 { (a + b - 1) / b }

@Suite struct BandwidthMeterTests {
  /// docs/conformance.md, Worked examples, peak bit rate: only the three 6 s segments and the [6+2] pair qualify.
  @Test func workedExample() {
    let s = samples(seconds: [6, 6, 6, 2], bytes: [600_000, 900_000, 600_000, 100_000])
    #expect(BandwidthMeter.peak(s, targetDuration: 6) == 1_200_000)
    #expect(BandwidthMeter.average(s) == 880_000)
  }

  @Test func shortSegmentAloneDoesNotSetThePeak() {
    // The 2 s segment alone (4 Mbit/s) is shorter than TD/2 = 3 s; the best
    // run that qualifies is the 8 s pair.
    let s = samples(seconds: [2, 6], bytes: [1_000_000, 600_000])
    #expect(BandwidthMeter.peak(s, targetDuration: 6) == 1_600_000)
  }

  @Test func windowBoundsAreInclusive() {
    // TD = 6: exactly 3 s and exactly 9.5 s qualify.
    let three = [Sample(bytes: 300_000, durationTicks: 270_000)]
    #expect(BandwidthMeter.peak(three, targetDuration: 6) == 800_000)
    let nineAndAHalf = [Sample(bytes: 950_000, durationTicks: 855_000)]
    #expect(BandwidthMeter.peak(nineAndAHalf + [Sample(bytes: 1, durationTicks: 1)], targetDuration: 6) == 800_000)
  }

  @Test func fallsBackToTheAverageWhenNoRunQualifies() {
    // 2 s in total, below TD/2 = 3 s.
    let s = samples(seconds: [1, 1], bytes: [100_000, 300_000])
    #expect(BandwidthMeter.peak(s, targetDuration: 6) == 1_600_000)
    #expect(BandwidthMeter.peak([], targetDuration: 6) == 0)
    #expect(BandwidthMeter.average([]) == 0)
  }

  @Test func roundsUp() {
    // 1 byte over 3 s is 2.67 bit/s.
    let s = [Sample(bytes: 1, durationTicks: 270_000)]
    #expect(BandwidthMeter.average(s) == 3)
    #expect(BandwidthMeter.peak(s, targetDuration: 6) == 3)
    // 1 000 000 bytes over 6.006 s = 1 332 001.33 bit/s.
    #expect(BandwidthMeter.average([Sample(bytes: 1_000_000, durationTicks: 540_540)]) == 1_332_002)
  }

  @Test func zeroDurationSegmentsAreHarmless() {
    let s = [Sample(bytes: 500, durationTicks: 0), Sample(bytes: 600_000, durationTicks: 540_000)]
    #expect(BandwidthMeter.peak(s, targetDuration: 6) == 800_667)
    #expect(BandwidthMeter.peak([Sample(bytes: 500, durationTicks: 0)], targetDuration: 6) == 0)
  }

  /// The window the packager declared BANDWIDTH over, [0.5·TD, 1.5·TD + 0.5 s],
  /// is RFC 8216bis §4.1's; verify used to measure over [0.5·TD, 1.5·TD]. TD 6:
  /// a 6.4 s segment (EXTINF rounds to 6) at 800 kbit/s, then a 2.9 s one too
  /// short to count alone (< 3 s). Together they last 9.3 s, inside 9.5 s but
  /// past 9 s: 1 365 000 B · 8 / 9.3 s = 1 174 193.5 bit/s, which the old
  /// verify window missed (it measured 800 000 and passed a BANDWIDTH of 800 000).
  @Test func runsUpToHalfASecondPastOneAndAHalfTargetDurationsCount() {
    let s = [Sample(bytes: 640_000, seconds: 6.4), Sample(bytes: 725_000, seconds: 2.9)]
    #expect(s.map(\.durationTicks) == [576_000, 261_000])
    #expect(BandwidthMeter.peak(s, targetDuration: 6) == 1_174_194)
  }

  /// verify measures from EXTINF, which `MediaPlaylist` writes to the
  /// microsecond: the seconds give back the packager's ticks, so both measure
  /// the same rates.
  @Test func extinfGivesBackThePackagersTicks() throws {
    for ticks: Int64 in [0, 1, 2, 3_003, 45_045, 539_999, 540_540, 576_001, 8_100_011] {
      let seconds = try #require(Double(MediaPlaylist.formatDuration(ticks)))
      #expect(Sample(bytes: 1, seconds: seconds).durationTicks == ticks, "\(ticks)")
    }
    // Hostile EXTINF values: counted as no time, or saturated, never a trap.
    #expect(Sample(bytes: 1, seconds: -2).durationTicks == 0)
    #expect(Sample(bytes: 1, seconds: .nan).durationTicks == 0)
    #expect(Sample(bytes: 1, seconds: 1e300).durationTicks == 1 << 62)
    #expect(Sample(bytes: 1, seconds: .infinity).durationTicks == 1 << 62)
    #expect(BandwidthMeter.peak([Sample(bytes: .max, durationTicks: 1)], targetDuration: 0) == .max)
    #expect(
      BandwidthMeter.average([Sample(bytes: .max, durationTicks: 1), Sample(bytes: .max, durationTicks: 1)]) == .max)
  }

  @Test func twoSecondSegmentsAtTargetTwo() {
    // TD 2: runs of 1–3.5 s count. The 4 s run of both 2 s segments does not.
    let s = [Sample(bytes: 1000, seconds: 2), Sample(bytes: 3000, seconds: 2)]
    #expect(BandwidthMeter.peak(s, targetDuration: 2) == 12000)
    #expect(BandwidthMeter.average(s) == 8000)
    // No run qualifies: the whole presentation is measured.
    #expect(BandwidthMeter.peak([Sample(bytes: 100, seconds: 0.4)], targetDuration: 2) == 2000)
  }

  @Test func matchesReferenceOnRandomPresentations() {
    var rng = SplitMix64(seed: 0x686C_7370_6163_6B21)
    for round in 0..<2_000 {
      let td = Int64.random(in: 1...10, using: &rng)
      let count = Int.random(in: 0...25, using: &rng)
      // Durations around the target (as cut at keyframes), sometimes far shorter.
      let s = (0..<count).map { _ in
        Sample(
          bytes: Int.random(in: 0...3_000_000, using: &rng),
          durationTicks: Int64.random(in: 0...(2 * td * 90_000), using: &rng))
      }
      #expect(
        BandwidthMeter.peak(s, targetDuration: td) == referencePeak(s, targetDuration: td),
        "case \(round): TD \(td), \(s)")
      #expect(BandwidthMeter.average(s) == referenceAverage(s), "case \(round)")
    }
  }
}
