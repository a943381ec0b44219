/// The segment format of every rendition: MPEG-TS or fragmented MP4 (CMAF).
public enum Container: String, Sendable, Equatable, CaseIterable {
  case ts
  case fmp4

  /// File extension of media segments.
  public var segmentExtension: String { self == .ts ? "ts" : "m4s" }
}
