import Testing

@testable import HLSPackCore

/// Feeds input frames (numbered from 0) through a converter the way the rung
/// worker does, and returns which input frame fills each output slot.
private func convert(_ times: [Double], to rate: FrameRate) -> [Int] {
  var converter = FrameRateConverter(rate: rate)
  var slots: [Int] = []
  for (frame, seconds) in times.enumerated() {
    let count = converter.push(seconds: seconds)
    // The held frame is the previous input; the first push emits nothing.
    slots += Array(repeating: frame - 1, count: Int(count))
  }
  slots += Array(repeating: times.count - 1, count: Int(converter.finish()))
  return slots
}

private func times(_ count: Int, fps: Double, from start: Double = 0) -> [Double] {
  (0..<count).map { start + Double($0) / fps }
}

@Suite struct FrameRateConverterTests {
  static let fps25 = FrameRate(numerator: 25, denominator: 1)

  @Test func sameRateIsOneInOneOut() {
    #expect(convert(times(100, fps: 25), to: Self.fps25) == Array(0..<100))
  }

  @Test func ntscSameRate() {
    let ntsc = FrameRate(numerator: 30000, denominator: 1001)
    #expect(convert(times(600, fps: ntsc.value), to: ntsc) == Array(0..<600))
  }

  @Test func halvingDropsEveryOtherFrame() {
    let slots = convert(times(100, fps: 50), to: Self.fps25)
    // Odd frames sit half-way between two slots, so floating-point error
    // decides which side they land on; either way slot j shows frame 2j or
    // 2j+1, and no frame is shown twice.
    for (slot, frame) in slots.prefix(50).enumerated() {
      #expect(frame / 2 == slot, "slot \(slot) shows frame \(frame)")
    }
    #expect(zip(slots, slots.dropFirst()).allSatisfy { $0 < $1 })
    #expect((50...51).contains(slots.count))
  }

  @Test func doublingRepeatsEveryFrame() {
    let slots = convert(times(50, fps: 25), to: FrameRate(numerator: 50, denominator: 1))
    // The last frame owns one slot only: the converter never learns its duration.
    #expect(slots == (0..<50).flatMap { [$0, $0] }.dropLast())
  }

  @Test func lateFirstFrameFillsLeadingSlots() {
    // The first frame at 0.2 s owns slot 5 and also covers slots 0–4.
    #expect(convert(times(3, fps: 25, from: 0.2), to: Self.fps25) == [0, 0, 0, 0, 0, 0, 1, 2])
  }

  @Test func gapRepeatsThePreviousFrame() {
    // Nothing arrives for slots 2 and 3: frame 1 stands in for them.
    #expect(convert([0, 0.04, 0.16, 0.2], to: Self.fps25) == [0, 1, 1, 1, 2, 3])
  }

  @Test func twoFramesOnOneSlotNewerWins() {
    #expect(convert([0, 0.04, 0.045, 0.08], to: Self.fps25) == [0, 2, 3])
  }

  @Test func finishEmitsTheHeldFrameOnce() {
    var converter = FrameRateConverter(rate: Self.fps25)
    #expect(converter.push(seconds: 0) == 0)
    #expect(converter.push(seconds: 0.04) == 1)
    #expect(converter.nextIndex == 1)
    #expect(converter.finish() == 1)
    #expect(converter.nextIndex == 2)
    #expect(converter.finish() == 0)
  }

  /// 50 fps to 25: the last source frame (3.98 s) rounds to slot 100 at 4.00 s,
  /// where the source has ended, so it is not emitted; 200 frames make 100.
  @Test func loweringTheRateAddsNoFramePastTheEnd() {
    var converter = FrameRateConverter(rate: Self.fps25)
    var emitted: Int64 = 0
    for n in 0..<200 { emitted += converter.push(seconds: Double(n) * 0.02) }
    emitted += converter.finish(endSeconds: 4.0)
    #expect(emitted == 100)
  }

  @Test func raisingTheRateKeepsTheLastFrameToTheEnd() {
    var converter = FrameRateConverter(rate: FrameRate(numerator: 50, denominator: 1))
    var emitted: Int64 = 0
    for n in 0..<100 { emitted += converter.push(seconds: Double(n) * 0.04) }
    emitted += converter.finish(endSeconds: 4.0)
    #expect(emitted == 200)
  }

  @Test func finishWithoutInputEmitsNothing() {
    var converter = FrameRateConverter(rate: Self.fps25)
    #expect(converter.finish() == 0)
  }

  @Test func negativeTimestampsClampToSlotZero() {
    #expect(convert([-0.5, -0.1, 0.04], to: Self.fps25) == [1, 2])
  }
}
