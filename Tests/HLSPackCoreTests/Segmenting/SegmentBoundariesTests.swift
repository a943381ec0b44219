import HLSPackCore
import Testing

/// The cutting rule of copied video and alternate audio: a segment starts at
/// the first frame at or after k·D, within `SegmentBoundaries.tolerance`.
@Suite struct SegmentBoundariesTests {
  /// The frames of `times` (seconds) that open a segment.
  private func openers(_ times: [Double], duration: Double, first: Int = 1) -> [Double] {
    var boundaries = SegmentBoundaries(segmentDuration: duration, first: first)
    return times.filter { boundaries.reaches($0) }
  }

  @Test func theFirstFrameAtOrAfterEachMultipleOpens() {
    let frames = stride(from: 0.0, to: 13, by: 0.5).map { $0 }
    #expect(openers(frames, duration: 4) == [4, 8, 12])
    #expect(openers([4.1, 4.2, 8.3], duration: 4) == [4.1, 8.3])
  }

  @Test func firstZeroLetsTheFirstFrameOpen() {
    #expect(openers([0, 2, 4, 6], duration: 4, first: 0) == [0, 4])
  }

  @Test func aMillisecondEarlyStillStandsForTheBoundary() {
    // A picture due at 6 s whose time was truncated to milliseconds reads 5.999 s.
    #expect(openers([5.999, 6.0], duration: 6) == [5.999])
    #expect(SegmentBoundaries.tolerance == 0.001)
    #expect(openers([5.9985, 6.01], duration: 6) == [6.01])
  }

  @Test func aLongGapOpensOneSegmentAndTheNextBoundaryFollowsIt() {
    var boundaries = SegmentBoundaries(segmentDuration: 2)
    let opened = [7.5, 7.9, 8].map { boundaries.reaches($0) }
    #expect(opened == [true, false, true])
    #expect(boundaries.next == 5)
  }

  @Test func farTimesDoNotOverflow() {
    var boundaries = SegmentBoundaries(segmentDuration: 1e-300)
    let opened = boundaries.reaches(1e300)
    #expect(opened)
    #expect(boundaries.next == .max)
  }
}
