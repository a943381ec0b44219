/// Where segments are cut, for every rendition: segment k starts at the first
/// frame at or after k·D, D the segment duration, counted from the start of
/// the package. Transcoded video forces its IDR frames there (`KeyframeSchedule`,
/// which counts frames exactly); copied video cuts at its first keyframe there
/// and alternate audio at its first frame there, both by timestamps read from
/// a stream, through `reaches(_:)`.
public struct SegmentBoundaries: Sendable, Equatable {
  /// How far before k·D a timestamp may lie and still stand for k·D: one
  /// millisecond, a tick of the coarsest time base sources use (Matroska, FLV),
  /// which round or truncate times on the frame grid by up to that much. The
  /// copy remuxer has always used it. Alternate audio used half a millisecond,
  /// which differs only for an audio frame that starts between 0.5 and 1 ms
  /// before a boundary: an AAC frame lasts 21 ms or more, and none of the
  /// packages of the shipped profiles has one there (their digests are unchanged).
  public static let tolerance = 0.001

  public let segmentDuration: Double
  /// The boundary that the next frame to reach it opens.
  public private(set) var next: Int

  /// `first`: the first boundary to look for; 0 when the first frame opens a
  /// segment through this rule too (its keyframe is checked as an opening one).
  public init(segmentDuration: Double, first: Int = 1) {
    self.segmentDuration = segmentDuration
    next = first
  }

  /// Whether a frame (a keyframe, for video) at `seconds` opens a segment: it
  /// is at or after the next boundary. Then the boundary after the frame is
  /// the next one, so a gap longer than a segment opens one segment, not several.
  public mutating func reaches(_ seconds: Double) -> Bool {
    guard seconds >= Double(next) * segmentDuration - Self.tolerance else { return false }
    next = min(Int(saturating: (seconds + Self.tolerance) / segmentDuration), .max - 1) + 1
    return true
  }
}
