/// What the renditions of a run are made into, handed as one value from the
/// profile and the run's options to every stage that encodes, muxes or cuts.
public struct RenditionOutput: Sendable, Equatable {
  public var container: Container
  /// Seconds; segments start where `SegmentBoundaries` says.
  public var segmentDuration: Double
  /// Same input, same output, to the byte: FFmpeg's bit-exact flags (no
  /// version strings) and encoders that decide nothing by timing.
  public var reproducible: Bool

  public init(container: Container, segmentDuration: Double, reproducible: Bool) {
    self.container = container
    self.segmentDuration = segmentDuration
    self.reproducible = reproducible
  }
}
