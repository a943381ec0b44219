import Foundation

/// What to make of each input: the ladder, the segmenting and the encryption.
/// Built only by `ProfileLoader`, so every value here has been validated.
public struct Profile: Sendable, Equatable {
  /// Inputs named by the profile, already resolved against the profile's folder.
  public var inputs: [URL]
  /// Assets the profile joins from parts (`inputs` entries with `parts`), in profile order.
  public var joinedInputs: [JoinedInput] = []
  /// The output folder named by the profile, resolved against the profile's folder.
  public var output: URL?
  public var segment: SegmentSettings
  public var video: [VideoRung]
  /// Audio muxed into every video rendition (`audio` given as one object).
  public var audio: AudioSettings?
  /// Separate audio renditions in EXT-X-MEDIA groups (`audio` given as a list).
  public var audioRenditions: [AudioRendition] = []
  /// An audio-only EXT-X-STREAM-INF per audio group.
  public var audioOnlyVariants = false
  public var subtitles: [SubtitleTrack] = []
  /// Warn when no variant's BANDWIDTH is at or below this (offline downloads start low).
  public var lowVariantBandwidth = 265_000
  /// Test labels burned into every encoded rung (`hlspack fixture make`).
  public var labels = false
  public var encryption: EncryptionSettings

  /// Packaging only: every rung copies its source's video.
  public var copiesVideo: Bool { video.allSatisfy { $0.codec == .copy } }
}
