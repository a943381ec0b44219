/// What a served file is to a player, as the request log and scenario rules name it.
public enum RequestKind: String, Codable, Sendable, CaseIterable {
  case master, media, segment, key, subtitles, other
  case initSegment = "init"
  /// The server's own endpoints under `/_hlspack/`.
  case control
}
