/// How renditions are cut into segments, and in which container.
public struct SegmentSettings: Sendable, Equatable {
  /// Target segment duration in seconds; IDR frames are forced at every multiple of it.
  public var duration: Double
  public var container: Container
  /// Write an I-frame playlist per video rendition (trick play).
  public var iFramePlaylists: Bool
  /// Record every segment's SHA-256 in report.json (costs a hash of every written byte).
  public var checksums: Bool
  /// Where EXT-X-PROGRAM-DATE-TIME starts; nil writes none.
  public var programDateTime: ProgramDateTimeStart?
  /// One file per rendition (`media.ts`, or `media.mp4` holding the init
  /// section and every fragment), its segments addressed with EXT-X-BYTERANGE.
  public var singleFile: Bool

  public init(
    duration: Double, container: Container, iFramePlaylists: Bool = true, checksums: Bool = false,
    programDateTime: ProgramDateTimeStart? = nil, singleFile: Bool = false
  ) {
    self.duration = duration
    self.container = container
    self.iFramePlaylists = iFramePlaylists
    self.checksums = checksums
    self.programDateTime = programDateTime
    self.singleFile = singleFile
  }
}

/// The wall-clock time of the presentation's first frame (`segment.program_date_time`).
public enum ProgramDateTimeStart: Sendable, Equatable {
  /// The source file's creation time (its container's `creation_time`).
  case source
  case fixed(ProgramDateTime)
}
