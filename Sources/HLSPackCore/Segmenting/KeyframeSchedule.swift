/// Where IDR frames are forced: on the first output frame at or after every
/// multiple of the segment duration, counted from the first frame. Every rung
/// with the same frame rate gets the same frame indices, so segments align.
public struct KeyframeSchedule: Sendable, Equatable {
  /// Segment duration in milliseconds (profiles give at most millisecond precision).
  let segmentMilliseconds: Int64
  let rate: FrameRate

  public init(segmentDuration: Double, rate: FrameRate) {
    segmentMilliseconds = Int64((segmentDuration * 1000).rounded())
    self.rate = rate
  }

  /// The frame index of boundary `k`: ceil(k * D * fps).
  public func frameIndex(ofBoundary k: Int64) -> Int64 {
    let numerator = k * segmentMilliseconds * Int64(rate.numerator)
    let denominator = Int64(rate.denominator) * 1000
    return (numerator + denominator - 1) / denominator
  }

  /// True when frame `n` is the first frame of a segment.
  public func isBoundary(frameIndex n: Int64) -> Bool {
    // The only candidate k is the last boundary whose time is <= frame n's time.
    let k = (n * Int64(rate.denominator) * 1000) / (segmentMilliseconds * Int64(rate.numerator))
    return frameIndex(ofBoundary: k) == n
  }

  /// Frames between forced IDRs, for the encoder's GOP limit.
  public var framesPerSegment: Int {
    Int(frameIndex(ofBoundary: 1))
  }
}
