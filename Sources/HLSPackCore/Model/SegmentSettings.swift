/// How renditions are cut into segments, and in which container.
public struct SegmentSettings: Sendable, Equatable {
  /// Target segment duration in seconds; IDR frames are forced at every multiple of it.
  public var duration: Double
  public var container: Container
  /// Write an I-frame playlist per video rendition (trick play).
  public var iFramePlaylists: Bool
  /// Record every segment's SHA-256 in report.json (costs a hash of every written byte).
  public var checksums: Bool

  public init(duration: Double, container: Container, iFramePlaylists: Bool = true, checksums: Bool = false) {
    self.duration = duration
    self.container = container
    self.iFramePlaylists = iFramePlaylists
    self.checksums = checksums
  }
}
