import HLSPackCore
import Testing

struct FrameIntervalsTests {
  func interval(_ pts: [Int64], tolerance: Int64 = 0) -> Double? {
    var intervals = FrameIntervals(tolerance: tolerance)
    pts.forEach { intervals.add($0) }
    return intervals.interval
  }

  @Test func decodeOrderWithBFramesGivesThePresentationInterval() {
    #expect(interval([0, 120, 40, 80, 240, 160, 200]) == 40)
  }

  /// 25 fps with dropped frames: the rate is 25, not the 21.6 on average.
  @Test func variableRateTakesTheFastestFrames() {
    #expect(interval([0, 40, 80, 160, 200, 320, 360, 400]) == 40)
  }

  /// 29.97 fps in milliseconds: gaps of 33 and 34 ms average to 1001/30.
  @Test func roundingToACoarseTimeBaseAveragesOut() throws {
    let pts = (0..<300).map { Int64((Double($0) * 1001 / 30).rounded()) }
    let value = try #require(interval(pts, tolerance: 1))
    #expect(abs(value - 1001.0 / 30) < 0.01, "\(value)")
  }

  @Test func oneFrameHasNoInterval() {
    #expect(interval([7]) == nil)
    #expect(interval([]) == nil)
  }

  @Test func measuredRatesSnapToTheNominalRateTheyRoundFrom() {
    #expect(FrameRate.nominal(near: 29.968)?.value == 30000.0 / 1001)
    #expect(FrameRate.nominal(near: 25.0004)?.value == 25)
    #expect(FrameRate.nominal(near: 29.99) == nil, "between 29.97 and 30: left as measured")
    #expect(FrameRate.nominal(near: 21.586) == nil)
  }
}
