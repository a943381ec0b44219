import Testing

@testable import HLSPackCore

@Suite struct KeyframeScheduleTests {
  static let pal = FrameRate(numerator: 25, denominator: 1)
  static let ntsc = FrameRate(numerator: 30000, denominator: 1001)

  @Test func wholeFramesPerSegment() {
    let schedule = KeyframeSchedule(segmentDuration: 4, rate: Self.pal)
    #expect((0...3).map { schedule.frameIndex(ofBoundary: $0) } == [0, 100, 200, 300])
    #expect(schedule.framesPerSegment == 100)
  }

  /// 6 s at 30000/1001 is 179.82 frames: each boundary is the first frame at or
  /// after k·6 s, i.e. ceil(k·6·30000/1001), computed here in exact integers.
  @Test func ntscBoundariesUseTheExactFraction() {
    let schedule = KeyframeSchedule(segmentDuration: 6, rate: Self.ntsc)
    for k in Int64(0)...1000 {
      let expected = (k * 6 * 30000 + 1000) / 1001
      #expect(schedule.frameIndex(ofBoundary: k) == expected, "boundary \(k)")
    }
    #expect((0...6).map { schedule.frameIndex(ofBoundary: $0) } == [0, 180, 360, 540, 720, 900, 1079])
    #expect(schedule.framesPerSegment == 180)
  }

  @Test func fractionalSegmentDuration() {
    // 2.5 s at 25 fps = 62.5 frames: segments alternate 63 and 62 frames.
    let schedule = KeyframeSchedule(segmentDuration: 2.5, rate: Self.pal)
    #expect((0...4).map { schedule.frameIndex(ofBoundary: $0) } == [0, 63, 125, 188, 250])
    #expect(schedule.framesPerSegment == 63)
  }

  @Test(arguments: [
    (4.0, pal), (6.0, ntsc), (2.5, pal), (1.0, FrameRate(numerator: 60000, denominator: 1001)),
    (3.003, FrameRate(numerator: 24000, denominator: 1001)), (7.0, FrameRate(numerator: 120, denominator: 1)),
  ])
  func isBoundaryExactlyAtBoundaryFrames(seconds: Double, rate: FrameRate) {
    let schedule = KeyframeSchedule(segmentDuration: seconds, rate: rate)
    let boundaries = Set((0...60).map { schedule.frameIndex(ofBoundary: $0) })
    let last = schedule.frameIndex(ofBoundary: 60)
    for n in 0...last {
      #expect(schedule.isBoundary(frameIndex: n) == boundaries.contains(n), "frame \(n)")
    }
  }

  /// The encoder's GOP limit must be the longest gap between forced IDRs,
  /// ceil(D·fps). Products that are whole numbers must not gain a frame from
  /// floating-point error.
  @Test(
    arguments: [
      (2.2, pal, 55), (1.1, FrameRate(numerator: 50, denominator: 1), 55),
      (3.003, FrameRate(numerator: 24000, denominator: 1001), 72),
    ])
  func framesPerSegmentIsExactForWholeProducts(seconds: Double, rate: FrameRate, expected: Int) {
    let schedule = KeyframeSchedule(segmentDuration: seconds, rate: rate)
    #expect(schedule.framesPerSegment == expected)
    #expect(Int64(expected) == schedule.frameIndex(ofBoundary: 1))
  }

  @Test func frameGridsThatDoNotShareBoundaryTimesAreMisaligned() {
    let film = KeyframeSchedule(segmentDuration: 2, rate: FrameRate(numerator: 24000, denominator: 1001))
    let pal = KeyframeSchedule(segmentDuration: 2, rate: FrameRate(numerator: 25, denominator: 1))
    let double = KeyframeSchedule(segmentDuration: 2, rate: FrameRate(numerator: 50, denominator: 1))
    #expect(KeyframeSchedule.misalignment([pal, double], segments: 100) == 0)
    let gap = KeyframeSchedule.misalignment([film, pal], segments: 100)
    #expect(gap > 0.0019 && gap < 0.042, "\(gap)")
  }

  /// AV1 rungs get key frames only periodically: the period must divide the segment.
  @Test(arguments: [
    (4.0, FrameRate(numerator: 25, denominator: 1), 50 as Int?), (5, FrameRate(numerator: 25, denominator: 1), 25),
    (6, FrameRate(numerator: 30000, denominator: 1001), nil), (1.001, FrameRate(numerator: 30000, denominator: 1001), 30),
    (2, FrameRate(numerator: 25, denominator: 2), 25), (3, FrameRate(numerator: 7, denominator: 1), 7),
    (2, FrameRate(numerator: 24000, denominator: 1001), nil),
  ])
  func keyFramePeriodsDivideTheSegment(seconds: Double, rate: FrameRate, period: Int?) {
    let schedule = KeyframeSchedule(segmentDuration: seconds, rate: rate)
    let twoSeconds = Int((2 * rate.value).rounded(.up))
    #expect(schedule.keyFramePeriod(atMost: twoSeconds) == period)
    #expect(schedule.segmentsAreWholeFrames == (period != nil))
    if let period {
      for k in Int64(0)...20 { #expect(schedule.frameIndex(ofBoundary: k) % Int64(period) == 0) }
    }
  }
}
