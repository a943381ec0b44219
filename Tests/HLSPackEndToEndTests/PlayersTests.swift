import Foundation
import HLSPackTestSupport
import Testing

/// Every shipped profile, played by clients that implement HLS and AES-128
/// themselves (VLC 3.0, streamlink, yt-dlp), fetched over HTTP from
/// 127.0.0.1: what each client read decodes, in the ffmpeg CLI, to the same
/// frames as one of the package's variants and audio decoded from the files
/// (frame count and framemd5), over the whole timeline; yt-dlp's subtitles
/// keep the sidecar's cue times. A client that is not installed is skipped.
@Suite("Players")
struct PlayersTests {
  @Test(.enabled(if: Player.vlc.path != nil, Player.vlc.skipMessage), arguments: ShippedProfilesTests.profiles)
  func vlc(_ profile: String) throws { try play(profile, in: .vlc) }

  @Test(
    .enabled(if: Player.streamlink.path != nil, Player.streamlink.skipMessage), arguments: ShippedProfilesTests.profiles
  )
  func streamlink(_ profile: String) throws { try play(profile, in: .streamlink) }

  @Test(.enabled(if: Player.ytdlp.path != nil, Player.ytdlp.skipMessage), arguments: ShippedProfilesTests.profiles)
  func ytdlp(_ profile: String) throws { try play(profile, in: .ytdlp) }

  /// VLC 3.0.24 leaves out the last 0.1 s of sound (5 AAC frames of the
  /// sample) of Shaka Packager 3.8's package of the same streams too.
  static let vlcAudioTailFrames = 8

  private func play(_ profile: String, in player: Player) throws {
    let package = try PlayablePackage.of(profile)
    guard player.plays(method: package.method) else { return }
    let server = try LocalHTTPServer(serving: package.asset)
    let folder = try ScratchFolder.make("\(player.rawValue)-\(profile)")
    let fetched = try player.fetch(server.url("master.m3u8"), into: folder)
    let what = "\(player.rawValue), \(profile)"

    let video = try FrameHashes.of(fetched.file, "v:0")
    #expect(
      video.count == package.sourceFrames, "\(what): \(video.count) of \(package.sourceFrames) pictures; \(fetched.log)"
    )
    #expect(package.videos.contains(video), "\(what): pictures differ from every variant's")

    let audio = try FrameHashes.of(fetched.file, "a:0")
    let tail = player == .vlc ? Self.vlcAudioTailFrames : 0
    let matches = package.audio.contains { reference in
      audio.count >= reference.count - tail && audio.count <= reference.count
        && Array(reference.prefix(audio.count)) == audio
    }
    #expect(
      matches, "\(what): \(audio.count) audio frames, none of the package's audio (\(package.audio.map(\.count)))")

    if player == .ytdlp, package.hasSubtitles {
      let cues = try SidecarCues.starts(in: folder.appendingPathComponent("yt-dlp.en.vtt"))
      let sidecar = try SidecarCues.starts(
        in: ShippedProfilesTests.projectRoot.appendingPathComponent("samples/sample.en.vtt"))
      #expect(
        cues.count == sidecar.count && zip(cues, sidecar).allSatisfy { abs($0 - $1) < 0.04 },
        "\(what): cues at \(cues), sidecar \(sidecar)")
    }
  }
}

/// A shipped profile's package, encoded once per test process and shared by
/// the players: app-scheme key URIs are rewritten to the key files first.
struct PlayablePackage: Sendable {
  var asset: URL
  var method: String
  var sourceFrames: Int
  var videos: [[String]]
  var audio: [[String]]
  var hasSubtitles: Bool

  private static let lock = NSLock()
  nonisolated(unsafe) private static var made: [String: PlayablePackage] = [:]

  static func of(_ profile: String) throws -> PlayablePackage {
    try lock.withLock {
      if let package = made[profile] { return package }
      let package = try make(profile)
      made[profile] = package
      return package
    }
  }

  private static func make(_ profile: String) throws -> PlayablePackage {
    let scratch = try ScratchFolder.make("players-\(profile)")
    let (run, encoded, keys) = try ShippedProfilesTests.encode(profile, in: scratch)
    guard run.status == 0 else { throw FixtureError("\(profile): \(run.stderr)") }
    var asset = encoded
    let master = try PlaylistReader(contentsOf: asset.appendingPathComponent("master.m3u8"))
    guard let first = master.variants.first else { throw FixtureError("\(profile): no variant") }
    let key = try PlaylistReader(contentsOf: asset.appendingPathComponent(first.uri)).segments.first?.keyAttributes
    if key?["URI"]?.hasPrefix("myapp-key:") == true {
      let withKeys = try ShippedProfilesTests.copy(
        asset, withKeysFrom: keys, to: scratch.appendingPathComponent("with-keys"))
      let rewritten = scratch.appendingPathComponent("rewritten")
      let rewrite = try Command.run(
        try Fixtures.executable(), ["rewrite-keys", withKeys.path, "--uri", "{key_file}", "--output", rewritten.path])
      guard rewrite.status == 0 else { throw FixtureError("\(profile): \(rewrite.stderr)") }
      asset = rewritten
    }
    let method = key?["METHOD"].map { $0 == "AES-128" ? "aes-128" : "sample-aes" } ?? "none"
    let renditions = master.values(of: "#EXT-X-MEDIA").map(PlaylistReader.attributes)
    let audioPlaylists = renditions.filter { $0["TYPE"] == "AUDIO" }.compactMap { $0["URI"] }
    // cbcs packages carry keys only an app resolves: no client here plays them, so nothing to decode.
    let decodable = method != "sample-aes"
    let variantFiles = Set(master.variants.map(\.uri)).sorted().map(asset.appendingPathComponent)
    let videos = decodable ? try variantFiles.map { try FrameHashes.of($0, "v:0") } : []
    let audio =
      decodable
      ? try (variantFiles + audioPlaylists.map(asset.appendingPathComponent)).map { try FrameHashes.of($0, "a:0") }
        .filter { !$0.isEmpty } : []
    let sourceFrames = try FrameHashes.of(
      ShippedProfilesTests.projectRoot.appendingPathComponent("samples/sample.mp4"), "v:0"
    ).count
    return PlayablePackage(
      asset: asset, method: method, sourceFrames: sourceFrames, videos: videos, audio: audio,
      hasSubtitles: renditions.contains { $0["TYPE"] == "SUBTITLES" })
  }
}

/// The ffmpeg CLI's framemd5 of one decoded stream (missing streams give none).
enum FrameHashes {
  static func of(_ file: URL, _ stream: String) throws -> [String] {
    // The HLS demuxer opens the extensionless key files only when told to.
    let input = (file.pathExtension == "m3u8" ? ["-allowed_extensions", "ALL"] : []) + ["-i", file.path]
    let run = try Command.run(
      "ffmpeg", ["-nostdin", "-v", "error"] + input + ["-map", "0:\(stream)?", "-f", "framemd5", "-"])
    guard run.status == 0 else { throw FixtureError("ffmpeg \(file.lastPathComponent): \(run.stderr)") }
    return run.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
      $0.split(separator: ",").last.map(String.init)
    }
  }
}

/// Cue start times of a WebVTT file, in seconds.
enum SidecarCues {
  static func starts(in file: URL) throws -> [Double] {
    try String(contentsOf: file, encoding: .utf8).split(separator: "\n").filter { $0.contains("-->") }.map { line in
      let time = line.split(separator: " ")[0].split(separator: ":").compactMap { Double($0) }
      return time.reversed().enumerated().reduce(0) { $0 + $1.element * pow(60, Double($1.offset)) }
    }
  }
}
