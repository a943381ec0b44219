/// One segment as the muxer cut it. Its bytes went to the sink before it, in
/// parts (`SegmentSink.acceptBytes`), so no segment has to be held whole.
public struct MediaSegment: Sendable {
  /// Presentation time of the segment's first video frame, 90 kHz.
  public var startTicks: Int64
  /// Presentation duration (next segment's first PTS − this one's; the last
  /// segment runs to the end of its last frame), 90 kHz.
  public var durationTicks: Int64
  /// Where the segment's independently decodable keyframes sit, for I-frame playlists.
  public var keyframes: [KeyframeRange]

  public init(startTicks: Int64, durationTicks: Int64, keyframes: [KeyframeRange] = []) {
    self.startTicks = startTicks
    self.durationTicks = durationTicks
    self.keyframes = keyframes
  }
}

/// A byte range of a segment that decodes to one picture on its own: in TS the
/// PSI written right before an IDR plus the IDR's packets, except that a
/// segment's first range starts after the tables that open the segment (the
/// client prefixes them, RFC 8216bis §4.4.3.6); in fMP4 the moof plus the
/// fragment's first sample.
public struct KeyframeRange: Sendable, Equatable {
  public var offset: Int
  public var length: Int
  /// Presentation time of the picture, 90 kHz.
  public var ptsTicks: Int64

  public init(offset: Int, length: Int, ptsTicks: Int64) {
    self.offset = offset
    self.length = length
    self.ptsTicks = ptsTicks
  }
}

/// Receives the segments of one rendition, in order, on the thread that muxes it.
public protocol SegmentSink: AnyObject {
  /// The fMP4 initialization segment (ftyp + moov), before any media segment.
  func acceptInitialization(_ bytes: [UInt8]) throws
  /// The next bytes of the segment being written: whole packets in MPEG-TS,
  /// the whole fragment (moof + mdat) in fMP4.
  func acceptBytes(_ bytes: [UInt8]) throws
  /// Ends the segment whose bytes arrived since the previous one ended.
  func accept(_ segment: MediaSegment) throws
}

/// What the written stream of one rendition turned out to be; the master
/// playlist's CODECS, RESOLUTION and FRAME-RATE come from here.
public struct WrittenStreamFacts: Sendable, Equatable, Codable {
  /// RFC 6381 codec strings, video first.
  public var codecs: [String]
  /// The picture's size as shown (RESOLUTION, RFC 8216bis §4.4.6.2): for
  /// non-square pixels, see `displayWidth(codedWidth:sampleAspect:)`.
  public var width: Int
  public var height: Int
  /// Measured from the written timestamps (90 kHz / smallest frame interval).
  public var frameRate: Double
  public var videoFrames: Int
  public var videoRange: VideoRange
  /// A copied Dolby Vision stream's configuration, which SUPPLEMENTAL-CODECS names.
  public var dolbyVision: DolbyVisionConfiguration?

  public init(
    codecs: [String], width: Int, height: Int, frameRate: Double, videoFrames: Int, videoRange: VideoRange = .sdr,
    dolbyVision: DolbyVisionConfiguration? = nil
  ) {
    self.codecs = codecs
    self.width = width
    self.height = height
    self.frameRate = frameRate
    self.videoFrames = videoFrames
    self.videoRange = videoRange
    self.dolbyVision = dolbyVision
  }
}

extension WrittenStreamFacts {
  /// SUPPLEMENTAL-CODECS (RFC 8216bis §4.4.6.2): a Dolby Vision stream's, else none.
  public var supplementalCodecs: [String] { dolbyVision.map { [$0.supplementalCodec] } ?? [] }

  /// The width at which a picture `codedWidth` pixels wide is shown, from
  /// the sample aspect ratio its stream carries (H.264/HEVC VUI, MP4 `pasp`);
  /// none or 0 means square pixels. Truncated, as Shaka Packager writes
  /// RESOLUTION: 176 pixels of 128:117 show as 192.
  public static func displayWidth(codedWidth: Int, sampleAspect: (numerator: Int, denominator: Int)) -> Int {
    guard sampleAspect.numerator > 0, sampleAspect.denominator > 0 else { return codedWidth }
    return codedWidth * sampleAspect.numerator / sampleAspect.denominator
  }
}
