import Foundation

/// The base profile every fixture starts from, and the pieces cases swap in:
/// labels on, 2 s segments, one 360p rung, AAC, keys derived from the seed
/// and exported (the database lists them).
enum FixtureProfile {
  static let segmentSeconds = 2

  static func rung(_ name: String, _ width: Int, _ height: Int, _ bitrate: Int, codec: String = "h264")
    -> [String: Any]
  {
    ["name": name, "width": width, "height": height, "bitrate": bitrate, "codec": codec, "preset": "veryfast"]
  }

  static var ladder: [[String: Any]] {
    [rung("720p", 1280, 720, 2_000_000), rung("480p", 854, 480, 1_000_000), rung("360p", 640, 360, 600_000)]
  }

  static func segment(container: String, iFrames: Bool) -> [String: Any] {
    ["duration": segmentSeconds, "container": container, "iframe_playlists": iFrames]
  }

  /// The labelled source's two audio tracks, told apart by their tone.
  static var alternateAudio: [[String: Any]] {
    [
      ["name": "English", "language": "en", "track": 0, "codec": "aac", "bitrate": 96_000, "default": true],
      ["name": "Français", "language": "fr", "track": 1, "codec": "aac", "bitrate": 96_000],
    ]
  }

  /// The subtitles file `FixtureMaker` writes next to the profiles.
  static let subtitlesFile = "media-time.en.vtt"
  static var subtitles: [[String: Any]] { [["name": "English", "language": "en", "file": subtitlesFile, "default": true]] }

  /// The whole profile of `fixture`, as JSON.
  /// `singleAudioTrack`: footage from `--source` may have one audio track,
  /// which both alternate renditions then take.
  /// `sourceFile`: the source's file name, which a case joined from parts
  /// names as `../source/<file>` (where `--keep-source` keeps it).
  static func json(for fixture: FixtureCase, seed: String, singleAudioTrack: Bool, sourceFile: String) throws -> Data {
    var profile: [String: Any] = [
      "version": 1, "labels": true,
      // The matrix is for players on a test network, not for offline downloads.
      "low_variant_bandwidth": 5_000_000,
      "segment": segment(container: fixture.container, iFrames: false),
      "video": [rung("360p", 640, 360, 600_000)],
      "audio": ["codec": "aac", "bitrate": 96_000, "channels": 2],
    ]
    for (key, value) in fixture.overrides { profile[key] = value }
    if !fixture.parts.isEmpty {
      let parts = fixture.parts.map { clear in
        ["file": "../source/\(sourceFile)"].merging(clear ? ["encryption": "none"] : [:]) { $1 }
      }
      profile["inputs"] = [["asset": FixtureMaker.sourceName, "parts": parts]]
    }
    if singleAudioTrack, fixture.overrides["audio"] != nil {
      profile["audio"] = alternateAudio.map { rendition in rendition.merging(["track": 0]) { $1 } }
    }
    if fixture.method != "none" {
      var encryption: [String: Any] = ["method": fixture.method, "seed": "\(seed)/\(fixture.id)", "export_keys": true]
      for (key, value) in fixture.encryption { encryption[key] = value }
      profile["encryption"] = encryption
    }
    return try JSONSerialization.data(withJSONObject: profile, options: [.prettyPrinted, .sortedKeys])
  }
}
