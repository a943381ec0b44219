import Foundation
import HLSPackCore
import HLSPackTestSupport
import Testing

/// Alternate audio (two languages plus 5.1), sidecar subtitles and audio-only
/// variants, checked against the rules of RFC 8216bis §4.4.6.1 and §4.4.6.2.
@Suite("Alternate audio and subtitles")
struct MediaGroupsTests {
  /// A 4 s source with English stereo, French stereo and English 5.1 audio,
  /// plus a WebVTT and an SRT sidecar.
  static func source(in folder: URL) throws -> URL {
    let url = folder.appendingPathComponent("film.mp4")
    let result = try Command.run(
      "ffmpeg",
      [
        "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=4",
        "-f", "lavfi", "-i", "sine=frequency=440:duration=4", "-f", "lavfi", "-i", "sine=frequency=660:duration=4",
        "-f", "lavfi", "-i", "sine=frequency=220:duration=4",
        "-filter_complex", "[3:a]pan=5.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0[s]",
        "-map", "0:v", "-map", "1:a", "-map", "2:a", "-map", "[s]", "-c:v", "libx264", "-preset", "ultrafast", "-g",
        "25",
        "-c:a", "aac", "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fra", "-metadata:s:a:2",
        "language=eng",
        url.path,
      ])
    guard result.status == 0 else { throw FixtureError(result.stderr) }
    try Data(
      "WEBVTT\n\n00:00:00.500 --> 00:00:01.500\nHello\n\n00:00:01.800 --> 00:00:02.600\nSpanning\n\n00:00:03.000 --> 00:00:03.800\nBye\n"
        .utf8
    )
    .write(to: folder.appendingPathComponent("film.en.vtt"))
    try Data("1\n00:00:00,700 --> 00:00:01,900\nBonjour\n\n2\n00:00:03,100 --> 00:00:03,900\nAu revoir\n".utf8)
      .write(to: folder.appendingPathComponent("film.fr.srt"))
    return url
  }

  static func package(encryption: String, container: String = "ts", options: [String] = []) throws -> URL {
    let scratch = try ScratchFolder.make()
    let input = try source(in: scratch)
    let profile = scratch.appendingPathComponent("groups.json")
    try Data(
      """
      {"version": 1, "segment": {"duration": 1, "container": "\(container)"},
       "video": [\(Fixtures.defaultRungs[1])],
       "audio": [{"name": "English", "language": "en", "track": 0, "default": true},
                 {"name": "Français", "language": "fr", "track": "fra"},
                 {"name": "English 5.1", "language": "en", "track": 2, "channels": 6, "id": "en-51"}],
       "audio_only_variants": true,
       "subtitles": [{"name": "English", "language": "en", "file": "{stem}.en.vtt", "default": true},
                     {"name": "Français", "language": "fr", "file": "{stem}.fr.srt"}],
       "encryption": \(encryption)}
      """.utf8
    ).write(to: profile)
    let output = scratch.appendingPathComponent("out")
    let result = try Command.run(
      try Fixtures.executable(),
      ["encode", "--profile", profile.path, "--output", output.path] + options + [input.path])
    guard result.status == 0 else { throw FixtureError(result.stderr) }
    return output.appendingPathComponent("film")
  }

  /// Decodes without errors; `tolerateEndOfFile`: FFmpeg mis-decrypts the last
  /// SAMPLE-AES access units at end of file (frame-exact checks are in SampleAESTests).
  func decodes(_ playlist: URL, tolerateEndOfFile: Bool = false) throws -> Bool {
    let result = try Command.run(
      "ffmpeg", ["-v", "error", "-allowed_extensions", "ALL", "-i", playlist.path, "-f", "null", "-"])
    return result.status == 0 && (tolerateEndOfFile || result.stderr.isEmpty)
  }

  @Test func masterListsTheGroupsWithCorrectAttributes() throws {
    let asset = try Self.package(encryption: #"{"method": "aes-128"}"#)
    let master = try PlaylistReader(contentsOf: asset.appendingPathComponent("master.m3u8"))
    let media = master.values(of: "#EXT-X-MEDIA").map(PlaylistReader.attributes)
    let audio = media.filter { $0["TYPE"] == "AUDIO" }, subtitles = media.filter { $0["TYPE"] == "SUBTITLES" }
    #expect(audio.count == 3 && subtitles.count == 2)
    for group in Set(media.compactMap { $0["GROUP-ID"] }) {
      let members = media.filter { $0["GROUP-ID"] == group }
      #expect(members.filter { $0["DEFAULT"] == "YES" }.count == 1, "one DEFAULT in \(group)")
      #expect(members.allSatisfy { $0["DEFAULT"] != "YES" || $0["AUTOSELECT"] == "YES" })
      #expect(Set(members.compactMap { $0["NAME"] }).count == members.count, "unique NAMEs in \(group)")
      #expect(members.allSatisfy { ($0["LANGUAGE"] ?? "").wholeMatch(of: /[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*/) != nil })
    }
    #expect(audio.allSatisfy { $0["CHANNELS"] != nil && $0["FORCED"] == nil })
    #expect(audio.first { $0["NAME"] == "English 5.1" }?["CHANNELS"] == "6")
    #expect(subtitles.allSatisfy { $0["FORCED"] == "NO" && $0["CHANNELS"] == nil })

    // Every video variant references the audio group and lists its codecs; BANDWIDTH
    // adds the group's largest audio rendition (RFC 8216bis §4.4.6.2), measured here independently.
    let video = master.variants.filter { $0.attributes["RESOLUTION"] != nil }
    #expect(!video.isEmpty)
    for variant in video {
      #expect(variant.attributes["AUDIO"] == "audio-aac" && variant.attributes["SUBTITLES"] == "subtitles")
      #expect(variant.attributes["CODECS"]?.contains("mp4a.40.2") == true)
      let peak = { (uri: String) throws -> Double in
        let segments = try Self.segments(of: uri, in: asset)
        return AES128LadderTests.peakAndAverage(
          sizes: segments.sizes, durations: segments.durations, target: segments.target
        ).peak
      }
      let audioPeak = try audio.compactMap { $0["URI"] }.map(peak).max() ?? 0
      let expected = try peak(variant.uri) + audioPeak
      let declared = try #require(Double(variant.attributes["BANDWIDTH"] ?? ""))
      #expect(declared >= expected.rounded(.down) && declared <= expected * 1.1, "\(declared) vs \(expected)")
    }
    let audioOnly = master.variants.filter { $0.attributes["RESOLUTION"] == nil }
    #expect(audioOnly.count == 1)
    #expect(audioOnly.first?.attributes["CODECS"] == "mp4a.40.2" && audioOnly.first?.attributes["AUDIO"] == "audio-aac")
  }

  /// The sizes on disk and durations of a media playlist's segments, and its target duration.
  static func segments(of uri: String, in asset: URL) throws -> (sizes: [Int], durations: [Double], target: Double) {
    let playlist = try PlaylistReader(contentsOf: asset.appendingPathComponent(uri))
    let base = asset.appendingPathComponent(uri).deletingLastPathComponent()
    let sizes = try playlist.segments.map {
      try #require(
        try FileManager.default.attributesOfItem(atPath: base.appendingPathComponent($0.uri).path)[.size] as? Int)
    }
    let target = Double(playlist.values(of: "#EXT-X-TARGETDURATION").first ?? "") ?? 1
    return (sizes, playlist.segments.map(\.duration), target)
  }

  /// RFC 8216bis §4.4.6.2: BANDWIDTH covers every rendition of the largest
  /// combination a client may play, subtitles included. Measured here as a
  /// client downloads it: each video segment with the subtitle segment of the
  /// same time, peak over the RFC 8216bis §4.1 windows, plus the largest audio
  /// rendition. Before, BANDWIDTH left the subtitles out and fell short.
  @Test func variantBandwidthCountsTheLargestSubtitleRendition() throws {
    let asset = try Self.package(encryption: #"{"method": "aes-128"}"#)
    let master = try PlaylistReader(contentsOf: asset.appendingPathComponent("master.m3u8"))
    let media = master.values(of: "#EXT-X-MEDIA").map(PlaylistReader.attributes)
    let rate = { (segments: (sizes: [Int], durations: [Double], target: Double)) in
      AES128LadderTests.peakAndAverage(sizes: segments.sizes, durations: segments.durations, target: segments.target)
    }
    let audio = try media.filter { $0["TYPE"] == "AUDIO" }.compactMap { $0["URI"] }.map {
      try rate(Self.segments(of: $0, in: asset))
    }
    let subtitles = try media.filter { $0["TYPE"] == "SUBTITLES" }.compactMap { $0["URI"] }.map {
      try Self.segments(of: $0, in: asset)
    }
    try #require(subtitles.count == 2 && !audio.isEmpty)
    for variant in master.variants where variant.attributes["SUBTITLES"] != nil {
      let video = try Self.segments(of: variant.uri, in: asset)
      let withSubtitles = subtitles.map { subtitle in
        rate((zip(video.sizes, subtitle.sizes).map { $0 + $1 }, video.durations, video.target))
      }
      let peak = (withSubtitles.map(\.peak).max() ?? 0) + (audio.map(\.peak).max() ?? 0)
      let average = (withSubtitles.map(\.average).max() ?? 0) + (audio.map(\.average).max() ?? 0)
      let declared = try #require(Double(variant.attributes["BANDWIDTH"] ?? ""))
      let declaredAverage = try #require(Double(variant.attributes["AVERAGE-BANDWIDTH"] ?? ""))
      #expect(declared >= peak.rounded(.down), "BANDWIDTH \(declared), measured \(peak)")
      #expect(declaredAverage >= average.rounded(.down), "AVERAGE-BANDWIDTH \(declaredAverage), measured \(average)")
    }
  }

  @Test(arguments: [#"{"method": "aes-128"}"#, #"{"method": "sample-aes"}"#])
  func everyRenditionDecodesAudioIsEncryptedAndSubtitlesStayClear(encryption: String) throws {
    let asset = try Self.package(encryption: encryption)
    let master = try PlaylistReader(contentsOf: asset.appendingPathComponent("master.m3u8"))
    let media = master.values(of: "#EXT-X-MEDIA").map(PlaylistReader.attributes)
    for uri in master.variants.map(\.uri) + media.filter({ $0["TYPE"] == "AUDIO" }).compactMap({ $0["URI"] }) {
      #expect(
        try decodes(asset.appendingPathComponent(uri), tolerateEndOfFile: encryption.contains("sample-aes")), "\(uri)")
    }
    for attributes in media {
      let playlist = try PlaylistReader(contentsOf: asset.appendingPathComponent(try #require(attributes["URI"])))
      let keyed = !playlist.values(of: "#EXT-X-KEY").isEmpty
      #expect(keyed == (attributes["TYPE"] == "AUDIO"), "\(attributes["NAME"] ?? ""): audio encrypted, subtitles clear")
    }
  }

  /// RFC 8216bis §3.1.1: a client may start at any segment, audio-only ones included.
  /// I-frame playlists are of video only (RFC 8216bis §4.4.3.6, §4.4.6.3):
  /// an audio rendition's I-frame "variant" would be the lowest a trick-play
  /// client can pick (found with `cbcs`, whose fragments are measured again).
  @Test(arguments: [("fmp4", "sample-aes"), ("fmp4", "aes-128"), ("ts", "sample-aes")])
  func onlyVideoHasIFramePlaylists(container: String, method: String) throws {
    let asset = try Self.package(encryption: #"{"method": "\#(method)"}"#, container: container)
    let master = try PlaylistReader(contentsOf: asset.appendingPathComponent("master.m3u8"))
    let iFrames = master.values(of: "#EXT-X-I-FRAME-STREAM-INF").map(PlaylistReader.attributes)
    #expect(iFrames.map { $0["URI"] } == ["low/iframes.m3u8"])
    for variant in iFrames {
      #expect(variant["CODECS"]?.hasPrefix("avc1.") == true && variant["RESOLUTION"] == "320x180", "\(variant)")
    }
    let folders = try FileManager.default.contentsOfDirectory(atPath: asset.path)
    #expect(
      folders.filter { FileManager.default.fileExists(atPath: asset.appendingPathComponent("\($0)/iframes.m3u8").path) }
        .count == 1)
  }

  @Test func everyTSSegmentOpensWithPATThenPMT() throws {
    let asset = try Self.package(encryption: #"{"method": "sample-aes"}"#)
    let master = try PlaylistReader(contentsOf: asset.appendingPathComponent("master.m3u8"))
    let audio = master.values(of: "#EXT-X-MEDIA").map(PlaylistReader.attributes).filter { $0["TYPE"] == "AUDIO" }
    for uri in master.variants.map(\.uri) + audio.compactMap({ $0["URI"] }) {
      let playlistURL = asset.appendingPathComponent(uri)
      for segment in try PlaylistReader(contentsOf: playlistURL).segments {
        let ts = try TransportStream(
          Array(try Data(contentsOf: playlistURL.deletingLastPathComponent().appendingPathComponent(segment.uri))))
        let first = ts.packets.prefix(2).map(\.pid)
        #expect(first == [0, try #require(ts.pmtPID)], "\(uri) \(segment.uri) opens with PIDs \(first)")
      }
    }
  }

  /// EXT-X-SESSION-KEY URIs resolve from the master to the key files the media
  /// playlists' EXT-X-KEY tags name from their own folders (RFC 8216bis §4.4.6.5), one tag per key,
  /// exactly as `rewrite-keys --uri {key_file}` writes them.
  @Test(arguments: ["asset", "rendition"])
  func sessionKeysNameTheMediaPlaylistsKeysFromTheMaster(scope: String) throws {
    let asset = try Self.package(encryption: #"{"method": "aes-128", "session_key": true, "scope": "\#(scope)"}"#)
    let masterURL = asset.appendingPathComponent("master.m3u8")
    let master = try PlaylistReader(contentsOf: masterURL)
    func keyFiles(_ playlist: URL, _ tag: String) throws -> [String] {
      try PlaylistReader(contentsOf: playlist).values(of: tag).compactMap { PlaylistReader.attributes($0)["URI"] }.map {
        playlist.deletingLastPathComponent().appendingPathComponent($0).standardizedFileURL.path
      }
    }
    let sessionKeys = try keyFiles(masterURL, "#EXT-X-SESSION-KEY")
    let audio = master.values(of: "#EXT-X-MEDIA").map(PlaylistReader.attributes).filter { $0["TYPE"] == "AUDIO" }
    let mediaKeys = try (master.variants.map(\.uri) + audio.compactMap { $0["URI"] }).flatMap {
      try keyFiles(asset.appendingPathComponent($0), "#EXT-X-KEY")
    }
    #expect(
      sessionKeys.count == (scope == "asset" ? 1 : 4) && Set(sessionKeys).count == sessionKeys.count, "\(sessionKeys)")
    #expect(Set(sessionKeys) == Set(mediaKeys))
    #expect(sessionKeys.allSatisfy { FileManager.default.fileExists(atPath: $0) })

    let before = try Data(contentsOf: masterURL)
    let rewrite = try Command.run(try Fixtures.executable(), ["rewrite-keys", asset.path, "--uri", "{key_file}"])
    #expect(rewrite.status == 0, "\(rewrite.stderr)")
    #expect(try Data(contentsOf: masterURL) == before)
  }

  /// After a SAMPLE-AES clear lead the PMT changes, so the video and audio
  /// playlists carry EXT-X-DISCONTINUITY; the I-frame playlist (ranges into
  /// the same segments) and the subtitle playlists must carry it at the same
  /// time (docs/conformance.md, SAMPLE-AES in MPEG-TS). Audio segments end on audio frames: within one.
  @Test func clearLeadDiscontinuityIsInEveryPlaylistAtTheSameTime() throws {
    let asset = try Self.package(encryption: #"{"method": "sample-aes", "clear_lead_segments": 1}"#)
    let master = try PlaylistReader(contentsOf: asset.appendingPathComponent("master.m3u8"))
    let iFrames = master.values(of: "#EXT-X-I-FRAME-STREAM-INF").compactMap { PlaylistReader.attributes($0)["URI"] }
    let media = master.values(of: "#EXT-X-MEDIA").compactMap { PlaylistReader.attributes($0)["URI"] }
    let playlists = Set(master.variants.map(\.uri) + iFrames + media)
    #expect(playlists.count == 7, "\(playlists)")
    for uri in playlists {
      var elapsed = 0.0
      var times: [Double] = []
      for line in try PlaylistReader(contentsOf: asset.appendingPathComponent(uri)).lines {
        if line == "#EXT-X-DISCONTINUITY" { times.append(elapsed) }
        if line.hasPrefix("#EXTINF:") { elapsed += Double(line.dropFirst(8).split(separator: ",")[0]) ?? 0 }
      }
      #expect(times.count == 1 && abs((times.first ?? 0) - 1) < 0.025, "\(uri): discontinuities at \(times) s")
    }
  }

  /// One EXT-X-TARGETDURATION for the presentation: the audio's first segment
  /// (priming included) is the longest, and the I-frame playlist says so too.
  @Test func everyPlaylistHasThePresentationsTargetDuration() throws {
    let asset = try Self.package(encryption: #"{"method": "none"}"#)
    let report = try JSONDecoder().decode(
      AssetReport.self, from: Data(contentsOf: asset.appendingPathComponent("report.json")))
    let playlists = try FileManager.default.subpathsOfDirectory(atPath: asset.path)
      .filter { $0.hasSuffix(".m3u8") && $0 != "master.m3u8" }
    #expect(playlists.contains { $0.hasSuffix("iframes.m3u8") } && playlists.count >= 6, "\(playlists)")
    for path in playlists {
      let text = try String(contentsOf: asset.appendingPathComponent(path), encoding: .utf8)
      let value = text.firstMatch(of: /#EXT-X-TARGETDURATION:(\d+)/).map { Int64($0.1) }
      #expect(value == report.targetDuration, "\(path)")
    }
  }

  /// report.json lists the subtitle tracks' segments as written, as it does every rendition's.
  @Test func reportListsEverySubtitleSegmentWithItsSizeAndChecksum() throws {
    let asset = try Self.package(encryption: #"{"method": "aes-128"}"#, options: ["--checksums"])
    let report = try JSONDecoder().decode(
      AssetReport.self, from: Data(contentsOf: asset.appendingPathComponent("report.json")))
    let tracks = try #require(report.subtitles)
    #expect(tracks.map(\.playlist) == ["subtitles/en/index.m3u8", "subtitles/fr/index.m3u8"])
    for track in tracks {
      let folder = track.playlist.replacingOccurrences(of: "/index.m3u8", with: "")
      let files = try FileManager.default.contentsOfDirectory(atPath: asset.appendingPathComponent(folder).path)
        .filter { $0.hasSuffix(".vtt") }.sorted().map { "\(folder)/\($0)" }
      #expect(!files.isEmpty && track.segments.map(\.uri) == files)
      for segment in track.segments {
        let path = asset.appendingPathComponent(segment.uri).path
        #expect(segment.bytes == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))
        let sum = try Command.run("sha256sum", [path]).text.prefix(64)
        #expect(segment.sha256 == String(sum) && segment.iv == nil && segment.keyID == nil, "\(segment.uri)")
      }
    }
  }
}
