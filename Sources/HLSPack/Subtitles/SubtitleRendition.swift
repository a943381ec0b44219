import Foundation
import HLSPackCore

/// A subtitle track of one asset: its cues, read before any media work, then
/// written as WebVTT segments on the video segments' boundaries. Subtitles
/// are never encrypted.
struct SubtitleRendition {
  let track: SubtitleTrack
  let cues: [SubtitleCue]

  var folder: String { "subtitles/\(track.id)" }

  /// Reads the sidecar file for `input` (`{stem}` → the input's file stem).
  static func load(_ track: SubtitleTrack, input: URL) throws -> SubtitleRendition {
    let path = track.file.replacingOccurrences(of: "{stem}", with: input.deletingPathExtension().lastPathComponent)
    guard let data = FileManager.default.contents(atPath: path) else {
      throw PackError.input(path: path, reason: "cannot read the subtitle file of track \"\(track.name)\"")
    }
    let text = String(decoding: data, as: UTF8.self)
    do {
      return SubtitleRendition(track: track, cues: try SubtitleParser.parse(text, srt: path.lowercased().hasSuffix(".srt")))
    } catch {
      throw PackError.input(path: path, reason: "not a valid subtitle file: \(error)")
    }
  }

  /// Writes the segments and the media playlist under `folder`; returns the playlist's path.
  func write(into asset: URL, segments: [SegmentRecord], targetDuration: Int64) throws -> String {
    guard let first = segments.first else { return "" }
    let origin = first.startTicks
    // Source milliseconds of each boundary; 90 kHz ticks → ms.
    var boundaries = segments.map { ($0.startTicks - origin) / 90 }
    if let last = segments.last { boundaries.append((last.startTicks + last.durationTicks - origin) / 90) }
    let documents = WebVTTSegmenter(originTicks: origin).segments(cues, boundaries: boundaries)
    let directory = asset.appendingPathComponent(folder)
    try createFolder(directory)
    var entries: [MediaPlaylist.Entry] = []
    for (index, (document, segment)) in zip(documents, segments).enumerated() {
      let name = String(format: "segment_%05d.vtt", index)
      try writeFile(Array(document.utf8), to: directory.appendingPathComponent(name))
      // The video's discontinuities, at the same segments (conformance B9).
      entries.append(.init(uri: name, durationTicks: segment.durationTicks, key: .none, discontinuity: segment.discontinuity))
    }
    let path = "\(folder)/index.m3u8"
    try writeFile(
      Array(MediaPlaylist(entries: entries, targetDuration: targetDuration).render().utf8), to: asset.appendingPathComponent(path))
    return path
  }
}
