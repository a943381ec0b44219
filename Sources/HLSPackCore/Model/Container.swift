/// The segment format of every rendition: MPEG-TS or fragmented MP4 (CMAF).
public enum Container: String, Sendable, Equatable, CaseIterable {
  case ts
  case fmp4

  /// File extension of media segments.
  public var segmentExtension: String { self == .ts ? "ts" : "m4s" }

  /// The one file of a rendition with `segment.single_file`: its init section
  /// and every segment (fMP4), or every segment (MPEG-TS).
  public var singleFileName: String { self == .ts ? "media.ts" : "media.mp4" }
}
