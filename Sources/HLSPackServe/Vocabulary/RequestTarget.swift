import Foundation

/// A request's file as the log and the rules see it: its kind, its
/// rendition (the folder holding it) and its segment index.
struct RequestTarget: Sendable, Equatable {
  /// Path relative to the served folder, without a leading slash.
  var relativePath: String
  var kind: RequestKind
  /// The name of the folder holding the file, for media playlists, segments,
  /// init segments and subtitles; nil for master playlists, keys and files at the top.
  var rendition: String?
  /// The last run of digits in a segment's file name (`segment_00004.ts` → 4).
  var segmentIndex: Int?

  init(relativePath: String, kind: RequestKind, rendition: String?, segmentIndex: Int?) {
    self.relativePath = relativePath
    self.kind = kind
    self.rendition = rendition
    self.segmentIndex = segmentIndex
  }

  /// Classifies by simple rules: `.m3u8` naming variant streams
  /// (`#EXT-X-STREAM-INF`) or renditions (`#EXT-X-MEDIA`) is a master playlist
  /// (RFC 8216bis section 4.4.6), any other `.m3u8` a media playlist; `.key`
  /// files and files in a `keys` folder are keys (and, through `KeyURIs`, any
  /// file a playlist names as a key); a media file whose name starts with
  /// `init` is an init segment.
  init(relativePath: String, realPath: String) {
    self.init(relativePath: relativePath) { Self.isMasterPlaylist(realPath: realPath) }
  }

  /// Classifies as above; `isMasterPlaylist` is asked only about `.m3u8` files.
  init(relativePath: String, isMasterPlaylist: () -> Bool) {
    self.relativePath = relativePath
    let components = relativePath.split(separator: "/")
    let name = components.last.map(String.init) ?? relativePath
    let folder = components.count > 1 ? String(components[components.count - 2]) : nil
    kind = Self.kind(name: name, folder: folder, isMasterPlaylist: isMasterPlaylist)
    switch kind {
    case .media, .segment, .initSegment, .subtitles: rendition = folder
    default: rendition = nil
    }
    segmentIndex = kind == .segment ? Self.lastNumber(in: name) : nil
  }

  static func isPlaylist(relativePath: String) -> Bool {
    MediaType.fileExtension(relativePath.split(separator: "/").last ?? "") == "m3u8"
  }

  private static func kind(name: String, folder: String?, isMasterPlaylist: () -> Bool) -> RequestKind {
    let ext = MediaType.fileExtension(name)
    switch ext {
    case "m3u8": return isMasterPlaylist() ? .master : .media
    case "key": return .key
    case "vtt", "webvtt": return .subtitles
    case "ts", "m4s", "mp4", "m4a", "aac", "ac3", "ec3", "cmfv", "cmfa":
      return name.lowercased().hasPrefix("init") ? .initSegment : .segment
    default: return folder == "keys" ? .key : .other
    }
  }

  /// Reads at most the first 64 KiB: the tags that make a master playlist come before its URIs.
  private static func isMasterPlaylist(realPath: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: realPath) else { return false }
    defer { try? handle.close() }
    guard let head = try? handle.read(upToCount: 64 * 1024) else { return false }
    return isMasterPlaylist(text: String(decoding: head, as: UTF8.self))
  }

  static func isMasterPlaylist(text: String) -> Bool {
    text.contains("#EXT-X-STREAM-INF") || text.contains("#EXT-X-MEDIA:")
  }

  private static func lastNumber(in name: String) -> Int? {
    let stem = name.split(separator: ".").first.map(String.init) ?? name
    let digits = stem.reversed().drop { !$0.isASCII || !$0.isNumber }.prefix { $0.isASCII && $0.isNumber }
    return digits.isEmpty ? nil : Int(String(digits.reversed()))
  }
}
