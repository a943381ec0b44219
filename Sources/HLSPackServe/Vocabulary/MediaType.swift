/// The Content-Type of a served file, from its extension. Fragmented MP4 is
/// `audio/mp4` under an `audio/` folder, where hlspack writes alternate audio
/// renditions (docs/architecture.md), and `video/mp4` elsewhere: telling an
/// audio-only file from its bytes would mean parsing every init segment.
enum MediaType {
  static func of(relativePath: String) -> String {
    let components = relativePath.split(separator: "/")
    let name = components.last.map(String.init) ?? relativePath
    let underAudio = components.dropLast().contains("audio")
    switch fileExtension(name) {
    case "m3u8": return "application/vnd.apple.mpegurl"
    case "ts": return "video/mp2t"
    case "m4s", "mp4", "cmfv", "cmfa": return underAudio ? "audio/mp4" : "video/mp4"
    case "m4a": return "audio/mp4"
    case "aac": return "audio/aac"
    case "ac3": return "audio/ac3"
    case "ec3": return "audio/eac3"
    case "vtt", "webvtt": return "text/vtt; charset=utf-8"
    case "json": return "application/json"
    case "key", "bin": return "application/octet-stream"
    case "txt": return "text/plain; charset=utf-8"
    // A page: as application/octet-stream a browser downloads it and aborts
    // the navigation (net::ERR_ABORTED) instead of showing fixture make's index.
    case "html", "htm": return "text/html; charset=utf-8"
    default: return "application/octet-stream"
    }
  }

  /// The lowercased text after the last dot, or "" when there is none.
  static func fileExtension(_ name: some StringProtocol) -> String {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
    return name[name.index(after: dot)...].lowercased()
  }
}
