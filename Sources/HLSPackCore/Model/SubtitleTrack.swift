/// A sidecar subtitle file (WebVTT, or SRT converted to WebVTT).
public struct SubtitleTrack: Sendable, Equatable {
  /// Folder name under `subtitles/`.
  public var id: String
  public var name: String
  public var language: String
  /// The file (resolved against the profile's folder); `{stem}` in it is
  /// replaced by the input's file stem.
  public var file: String
  public var isDefault: Bool
  public var autoselect: Bool
  public var forced: Bool

  public static let groupID = "subtitles"
}
