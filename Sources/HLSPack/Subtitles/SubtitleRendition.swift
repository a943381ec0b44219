import Foundation
import HLSPackCore
import HLSPackCrypto

/// A subtitle track of one asset: its cues, read before any media work, then
/// written as WebVTT segments on the video segments' boundaries. Subtitles
/// are never encrypted.
struct SubtitleRendition {
  let track: SubtitleTrack
  let cues: [SubtitleCue]

  var folder: String { "subtitles/\(track.id)" }

  /// The sidecar file of `track` for `input` (`{stem}` → the input's file stem).
  static func file(of track: SubtitleTrack, for input: URL) -> String {
    guard track.file.utf8.contains(UInt8(ascii: "{")), track.file.contains("{stem}") else { return track.file }
    return track.file.replacingOccurrences(of: "{stem}", with: input.deletingPathExtension().lastPathComponent)
  }

  /// Reads the sidecar file for `input`.
  static func load(_ track: SubtitleTrack, input: URL) throws -> SubtitleRendition {
    let path = file(of: track, for: input)
    let data: [UInt8]
    do {
      data = try SmallFile.read(path, limit: 64 << 20)
    } catch {
      throw PackError.input(
        path: path, reason: "cannot read the subtitle file of track \"\(track.name)\" \(error.reason)")
    }
    let text = String(decoding: data, as: UTF8.self)
    do {
      return SubtitleRendition(
        track: track, cues: try SubtitleParser.parse(text, srt: path.lowercased().hasSuffix(".srt")))
    } catch {
      throw PackError.input(path: path, reason: "not a valid subtitle file: \(error)")
    }
  }

  /// Writes the segments and the media playlist under `folder`; returns what
  /// report.json says of them (SHA-256 sums with `checksums`). Cues are
  /// timed as the media is shown: `presentationShift` earlier than its timestamps.
  func write(
    into asset: URL, segments: [SegmentRecord], presentationShift: Int64, targetDuration: Int64, checksums: Bool,
    clock: WallClock? = nil
  ) throws -> AssetReport.Subtitles {
    var report = AssetReport.Subtitles(name: track.name, language: track.language, playlist: "", segments: [])
    guard let first = segments.first else { return report }
    let origin = first.startTicks
    // Source milliseconds of each boundary; 90 kHz ticks → ms.
    var boundaries = segments.map { ($0.startTicks - origin) / 90 }
    if let last = segments.last { boundaries.append((last.startTicks + last.durationTicks - origin) / 90) }
    let documents = WebVTTSegmenter(originTicks: origin - presentationShift).segments(cues, boundaries: boundaries)
    let directory = asset.appendingPathComponent(folder)
    try createFolder(directory)
    var entries: [MediaPlaylist.Entry] = []
    for (index, (document, segment)) in zip(documents, segments).enumerated() {
      let name = String(format: "segment_%05d.vtt", index)
      let bytes = Array(document.utf8)
      try writeFile(bytes, to: directory.appendingPathComponent(name))
      report.segments.append(
        .init(
          uri: "\(folder)/\(name)", duration: MediaClock.seconds(segment.durationTicks), bytes: bytes.count,
          sha256: checksums ? Hex.encode(try Digest.sha256(bytes)) : nil, iv: nil, keyID: nil))
      // The video's discontinuities, at the same segments (Apple HLS Authoring Spec 8.13–8.15).
      entries.append(
        .init(
          uri: name, durationTicks: segment.durationTicks, key: .none, discontinuity: segment.discontinuity,
          programDateTime: clock?.time(at: segment.startTicks, first: index == 0, discontinuity: segment.discontinuity))
      )
    }
    report.playlist = "\(folder)/index.m3u8"
    try writeFile(
      Array(MediaPlaylist(entries: entries, targetDuration: targetDuration).render().utf8),
      to: asset.appendingPathComponent(report.playlist))
    return report
  }
}
