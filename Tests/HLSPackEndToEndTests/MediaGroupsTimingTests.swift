import Foundation
import HLSPackCore
import HLSPackTestSupport
import Testing

/// Where subtitle cues and alternate audio sit on the presentation timeline.
extension MediaGroupsTests {
  @Test func subtitleCuesSitAtTheSidecarTimes() throws {
    let asset = try Self.package(encryption: #"{"method": "none"}"#)
    for (id, expected) in [("en", [0.5, 1.8, 3.0]), ("fr", [0.7, 3.1])] {
      let playlist = asset.appendingPathComponent("subtitles/\(id)/index.m3u8")
      let first = try String(
        contentsOf: asset.appendingPathComponent("subtitles/\(id)/segment_00000.vtt"), encoding: .utf8)
      // The first picture's timestamp: the media clock starts 1 s in (the muxers' timeline offset).
      #expect(first.contains("X-TIMESTAMP-MAP=MPEGTS:90000,LOCAL:00:00:00.000"))
      let probe = try Command.run(
        "ffprobe", ["-v", "error", "-show_entries", "packet=pts_time", "-of", "csv=p=0", playlist.path])
      // Cues at presentation times, within one frame (40 ms).
      let shifted = Set(probe.text.split(separator: "\n").compactMap { Double($0) }).sorted()
      #expect(shifted.count == expected.count, "\(id): \(shifted)")
      for (got, want) in zip(shifted, expected) { #expect(abs(got - want) < 0.04, "\(id): \(got) vs \(want)") }
      // The "Spanning" cue crosses a segment boundary and is in both segments (RFC 8216 §3.5).
    }
    let second = try String(contentsOf: asset.appendingPathComponent("subtitles/en/segment_00002.vtt"), encoding: .utf8)
    #expect(second.contains("Spanning"))
  }

  /// fMP4's edit lists show the first picture at 0 (FragmentedMP4Tests): the
  /// cues and X-TIMESTAMP-MAP count from there, so cues keep the sidecar times.
  @Test func fmp4CuesCountFromTheFirstPictureAtZero() throws {
    let asset = try Self.package(encryption: #"{"method": "none"}"#, container: "fmp4")
    let master = try PlaylistReader(contentsOf: asset.appendingPathComponent("master.m3u8"))
    let video = try #require(master.variants.first { $0.attributes["RESOLUTION"] != nil })
    let probe = try Command.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=start_time", "-of", "csv=p=0",
        asset.appendingPathComponent(video.uri).path,
      ])
    // Listed under the program and under the stream.
    #expect(probe.text.split(separator: "\n").first == "0.000000", "\(probe.text)")
    let first = try String(contentsOf: asset.appendingPathComponent("subtitles/en/segment_00000.vtt"), encoding: .utf8)
    #expect(first.contains("X-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000\n"), "\(first)")
    let cues = try Command.run(
      "ffprobe",
      [
        "-v", "error", "-show_entries", "packet=pts_time", "-of", "csv=p=0",
        asset.appendingPathComponent("subtitles/en/index.m3u8").path,
      ])
    let starts = Set(cues.text.split(separator: "\n").compactMap { Double($0) }).sorted()
    #expect(starts.count == 3, "\(starts)")
    for (got, want) in zip(starts, [0.5, 1.8, 3.0]) { #expect(abs(got - want) < 0.002, "\(got) vs \(want)") }
  }

  /// Alternate audio in fMP4 (muxed by itself, not beside video) starts at
  /// tfdt 0, and its edit list skips exactly its priming: ffprobe, which
  /// applies it, starts the audio that much before 0.
  @Test func fmp4AlternateAudioSkipsItsPriming() throws {
    let asset = try Self.package(encryption: #"{"method": "none"}"#, container: "fmp4")
    let master = try PlaylistReader(contentsOf: asset.appendingPathComponent("master.m3u8"))
    let uris = master.values(of: "#EXT-X-MEDIA").map(PlaylistReader.attributes).filter { $0["TYPE"] == "AUDIO" }
      .compactMap { $0["URI"] }
    #expect(uris.count == 3)
    for uri in uris {
      let folder = asset.appendingPathComponent(uri).deletingLastPathComponent()
      let moov = try #require(
        try Box.parse(Array(try Data(contentsOf: folder.appendingPathComponent("init.mp4")))[...]).first {
          $0.type == "moov"
        })
      let trak = try #require(try moov.children().first { $0.type == "trak" })
      let priming = try #require(try TrackEdit(trak), "\(uri): no edit list").seconds
      #expect(priming > 0.01 && priming < 0.03, "\(uri): \(priming) s")
      let playlist = try PlaylistReader(contentsOf: folder.appendingPathComponent("index.m3u8"))
      let first = try #require(playlist.segments.first)
      let moof = try #require(
        try Box.parse(Array(try Data(contentsOf: folder.appendingPathComponent(first.uri)))[...]).first)
      let fragment = try TrackFragment(try #require(try moof.children().first { $0.type == "traf" }))
      #expect(fragment.baseDecodeTime == 0, "\(uri)")
      let start = try #require(
        Double(
          try ffprobe(folder.appendingPathComponent("index.m3u8").path, ["-show_entries", "stream=start_time"])[
            "start_time"] ?? ""))
      #expect(abs(start + priming) < 0.0001, "\(uri): starts at \(start), priming \(priming)")
    }
  }

  /// Through the master playlist with FFmpeg 8.1 (5.1 lists subtitles there
  /// only with `-strict experimental`: SubtitleClientsTests). FFmpeg drops the cues of the first subtitle segment of any
  /// package (Shaka Packager's too), so cues from the second segment on are
  /// compared with the sidecar. FFmpeg ignores X-TIMESTAMP-MAP and reads cue
  /// times on the MPEG-TS clock, whose first picture is at 1 s: it shows cues
  /// at their presentation times less 1 s (its times start at the input's
  /// start, the earliest stream, audio priming included), within one frame.
  @Test(.enabled(if: ProcessInfo.processInfo.environment["HLSPACK_PEER_FFMPEG"] != nil))
  func cuesThroughTheMasterPlaylistWithFFmpeg8() throws {
    let ffmpeg = try #require(ProcessInfo.processInfo.environment["HLSPACK_PEER_FFMPEG"])
    let ffprobe = URL(fileURLWithPath: ffmpeg).deletingLastPathComponent()
      .appendingPathComponent(
        URL(fileURLWithPath: ffmpeg).lastPathComponent.replacingOccurrences(of: "ffmpeg", with: "ffprobe")
      ).path
    let asset = try Self.package(encryption: #"{"method": "none"}"#)
    let master = asset.appendingPathComponent("master.m3u8").path
    let start = try #require(
      Double(
        try Command.run(
          ffprobe, ["-v", "error", "-show_entries", "format=start_time", "-of", "csv=p=0", master]
        ).text
          .trimmingCharacters(in: .whitespacesAndNewlines)))
    for (index, sidecar) in [(0, [1.8, 3.0]), (1, [3.1])] {
      let run = try Command.run(ffmpeg, ["-v", "error", "-i", master, "-map", "0:s:\(index)", "-f", "webvtt", "-"])
      let starts = run.text.split(separator: "\n").filter { $0.contains("-->") }.compactMap { line -> Double? in
        let parts = line.split(separator: " ")[0].split(separator: ":").compactMap { Double($0) }
        return parts.reversed().enumerated().reduce(0) { $0 + $1.element * pow(60, Double($1.offset)) }
      }
      for cue in sidecar {
        #expect(starts.contains { abs($0 - (cue - start)) < 0.04 }, "cue at \(cue) s: FFmpeg shows \(starts)")
      }
    }
  }
}
