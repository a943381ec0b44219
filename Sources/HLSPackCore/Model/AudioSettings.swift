/// The audio codec of a rendition.
public enum AudioCodec: String, Sendable, Equatable, CaseIterable {
  case aac
  /// FFmpeg's native AC-3 encoder (Dolby Digital), up to 5.1.
  case ac3
  /// The source's audio packets as they are (with copy rungs).
  case copy
}

public struct AudioSettings: Sendable, Equatable {
  public var codec: AudioCodec
  public var bitrate: Int
  public var channels: Int
  public var sampleRate: Int
}
