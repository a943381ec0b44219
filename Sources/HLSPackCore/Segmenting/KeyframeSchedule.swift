/// Where IDR frames are forced: on the first output frame at or after every
/// multiple of the segment duration, counted from the first frame: the rule of
/// `SegmentBoundaries`, counted in frames. Encoded frames' times are exact
/// multiples of the frame interval, so no tolerance applies. Every rung with
/// the same frame rate gets the same frame indices, so segments align.
public struct KeyframeSchedule: Sendable, Equatable {
  /// Segment duration in milliseconds (profiles give at most millisecond precision).
  let segmentMilliseconds: Int64
  let rate: FrameRate

  /// `rate`'s terms are positive and fit 32 bits (a profile's at most
  /// `FrameRate.largestTerm`, a source's come from FFmpeg's `AVRational`).
  public init(segmentDuration: Double, rate: FrameRate) {
    segmentMilliseconds = max(1, Int64(saturating: (segmentDuration * 1000).rounded()))
    self.rate = rate
  }

  // The products below are taken in 128 bits: a frame or boundary index
  // times a 32-bit rate term times milliseconds overflows 64 bits within
  // hours of video at rates such as 2147483647/71582788.

  /// The frame index of boundary `k`: ceil(k * D * fps).
  public func frameIndex(ofBoundary k: Int64) -> Int64 {
    let numerator = Int128(k) * Int128(segmentMilliseconds) * Int128(rate.numerator)
    let denominator = Int128(rate.denominator) * 1000
    return Int64(clamping: (numerator + denominator - 1) / denominator)
  }

  /// True when frame `n` is the first frame of a segment.
  public func isBoundary(frameIndex n: Int64) -> Bool {
    // The only candidate k is the last boundary whose time is <= frame n's time.
    let k = Int128(n) * Int128(rate.denominator) * 1000 / (Int128(segmentMilliseconds) * Int128(rate.numerator))
    return frameIndex(ofBoundary: Int64(clamping: k)) == n
  }

  /// Seconds at which boundary `k` falls (its first frame's time).
  public func seconds(ofBoundary k: Int64) -> Double {
    Double(frameIndex(ofBoundary: k)) * Double(rate.denominator) / Double(rate.numerator)
  }

  /// The largest gap, in seconds, between where these schedules put the same
  /// boundary over `segments` segments: frame grids that do not share the
  /// boundary times (23.976 and 25 fps cut 2 s segments 2 ms apart) cannot
  /// align their segments exactly.
  public static func misalignment(_ schedules: [KeyframeSchedule], segments: Int64) -> Double {
    guard segments > 0 else { return 0 }
    return (1...segments).map { k in
      let times = schedules.map { $0.seconds(ofBoundary: k) }
      return (times.max() ?? 0) - (times.min() ?? 0)
    }.max() ?? 0
  }

  /// Frames between forced IDRs, for the encoder's GOP limit.
  public var framesPerSegment: Int {
    Int(frameIndex(ofBoundary: 1))
  }
}

extension KeyframeSchedule {
  /// Whether every segment is the same whole number of frames, so that the
  /// boundaries fall every `framesPerSegment` frames.
  public var segmentsAreWholeFrames: Bool {
    (Int128(segmentMilliseconds) * Int128(rate.numerator)) % (Int128(rate.denominator) * 1000) == 0
  }

  /// For an encoder that puts key frames only at a fixed period: the longest
  /// period of at most `limit` frames whose key frames land on every segment
  /// boundary (a divisor of `framesPerSegment`); nil when the boundaries are
  /// not evenly spaced.
  public func keyFramePeriod(atMost limit: Int) -> Int? {
    guard segmentsAreWholeFrames else { return nil }
    let frames = framesPerSegment
    return stride(from: max(1, min(frames, limit)), through: 1, by: -1).first { frames % $0 == 0 }
  }
}
