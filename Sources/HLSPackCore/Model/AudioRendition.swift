/// Which audio track of the source a rendition takes.
public enum AudioTrackSelector: Sendable, Equatable {
  /// The n-th audio stream of the source, from 0.
  case index(Int)
  /// The first audio stream whose language tag is this (ISO 639-2 or BCP 47 primary subtag).
  case language(String)
}

/// One alternate audio rendition: its own media playlist in an EXT-X-MEDIA group.
public struct AudioRendition: Sendable, Equatable {
  /// Folder name under `audio/`.
  public var id: String
  /// EXT-X-MEDIA NAME.
  public var name: String
  /// BCP 47 language tag.
  public var language: String
  public var settings: AudioSettings
  public var track: AudioTrackSelector
  public var isDefault: Bool
  public var autoselect: Bool

  /// Renditions of one codec share a group (RFC 8216bis §4.4.6.1.1, §4.4.6.2).
  public var groupID: String { "audio-\(settings.codec.rawValue)" }
}
