/// One segment as the muxer produced it, before encryption.
public struct MediaSegment: Sendable {
  public var bytes: [UInt8]
  /// Presentation time of the segment's first video frame, 90 kHz.
  public var startTicks: Int64
  /// Presentation duration (next segment's first PTS − this one's; the last
  /// segment runs to the end of its last frame), 90 kHz.
  public var durationTicks: Int64

  public init(bytes: [UInt8], startTicks: Int64, durationTicks: Int64) {
    self.bytes = bytes
    self.startTicks = startTicks
    self.durationTicks = durationTicks
  }
}

/// Receives the segments of one rendition, in order, on the thread that muxes it.
public protocol SegmentSink: AnyObject {
  /// The fMP4 initialization segment (ftyp + moov), before any media segment.
  func acceptInitialization(_ bytes: [UInt8]) throws
  func accept(_ segment: MediaSegment) throws
}

/// What the written stream of one rendition turned out to be; the master
/// playlist's CODECS, RESOLUTION and FRAME-RATE come from here.
public struct WrittenStreamFacts: Sendable, Equatable, Codable {
  /// RFC 6381 codec strings, video first.
  public var codecs: [String]
  public var width: Int
  public var height: Int
  /// Measured from the written timestamps (90 kHz / smallest frame interval).
  public var frameRate: Double
  public var videoFrames: Int

  public init(codecs: [String], width: Int, height: Int, frameRate: Double, videoFrames: Int) {
    self.codecs = codecs
    self.width = width
    self.height = height
    self.frameRate = frameRate
    self.videoFrames = videoFrames
  }
}
