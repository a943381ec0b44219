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
