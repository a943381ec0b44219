import Foundation
import HLSPackTestSupport
import Testing

@testable import HLSPackCore

/// Builds profile JSON from a valid baseline plus per-field changes, so each
/// rejection case states only the field it breaks. A change maps a key to raw
/// JSON text; nil removes the key.
enum ProfileJSON {
  typealias Changes = KeyValuePairs<String, String?>

  static let firstRung = #"{"name": "low", "width": 640, "height": 360, "bitrate": 800000}"#

  /// The second rung, so paths prove the index is reported (`$.video[1]…`).
  static func rung(_ changes: Changes = [:]) -> String {
    object([("name", #""high""#), ("width", "1280"), ("height", "720"), ("bitrate", "3000000")], changes)
  }

  static func profile(_ root: Changes = [:], rung changes: Changes = [:]) -> String {
    let base = [
      ("version", "1"),
      ("segment", #"{"duration": 6}"#),
      ("video", "[\(firstRung), \(rung(changes))]"),
    ]
    return object(base, root)
  }

  private static func object(_ base: [(String, String)], _ changes: Changes) -> String {
    var fields = base
    for (key, value) in changes {
      let index = fields.firstIndex { $0.0 == key }
      switch (index, value) {
      case (let i?, let v?): fields[i].1 = v
      case (let i?, nil): fields.remove(at: i)
      case (nil, let v?): fields.append((key, v))
      case (nil, nil): break
      }
    }
    return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
  }
}

private func load(_ json: String) throws -> Profile {
  try ProfileLoader.load(data: Data(json.utf8), file: "test.json", baseDirectory: URL(fileURLWithPath: "/profiles"))
}

/// One profile that must be refused: where, and words the message must contain.
struct Rejection: Sendable, CustomTestStringConvertible {
  var json: String
  var path: String
  var message: String
  var testDescription: String { "\(path): \(message)" }

  init(_ json: String, _ path: String, _ message: String) {
    self.json = json
    self.path = path
    self.message = message
  }
}

private typealias P = ProfileJSON

@Suite struct ProfileLoaderTests {
  @Test func fullProfileRoundTrip() throws {
    let folder = try TemporaryFolder()
    let profiles = folder.url.appendingPathComponent("profiles")
    try FileManager.default.createDirectory(at: profiles, withIntermediateDirectories: true)
    let file = profiles.appendingPathComponent("ladder.json")
    try Data(
      """
      {
        "$schema": "../Profiles/profile.schema.json",
        "version": 1,
        "inputs": ["../media/a.mp4", "/abs/b.mov"],
        "output": "out",
        "segment": {"duration": 4, "container": "ts"},
        "video": [
          {"name": "360p", "width": 640, "height": 360, "bitrate": 800000, "maxrate": 1000000, "bufsize": 1600000,
           "codec": "h264", "profile": "main", "level": "3.0", "preset": "fast", "fps": 25},
          {"name": "720p", "width": 1280, "height": 720, "bitrate": 3000000, "level": 4.1, "fps": "30000/1001"}
        ],
        "audio": {"codec": "aac", "bitrate": 96000, "channels": 1, "sample_rate": 44100},
        "encryption": {"method": "aes-128", "key_uri": "https://keys.example/k", "iv": "random"}
      }
      """.utf8
    ).write(to: file)

    let profile = try ProfileLoader.load(contentsOf: file)

    // Relative paths are resolved against the profile's folder, not the working directory.
    #expect(profile.inputs.map(\.path) == [folder.url.appendingPathComponent("media/a.mp4").path, "/abs/b.mov"])
    #expect(profile.output?.path == profiles.appendingPathComponent("out").path)
    #expect(profile.segment == SegmentSettings(duration: 4, container: .ts))
    #expect(
      profile.video == [
        VideoRung(
          name: "360p", width: 640, height: 360, bitrate: 800_000, maxrate: 1_000_000, bufsize: 1_600_000,
          codec: .h264, profile: "main", level: "3.0", preset: "fast", fps: FrameRate(numerator: 25, denominator: 1)),
        VideoRung(
          name: "720p", width: 1280, height: 720, bitrate: 3_000_000, maxrate: nil, bufsize: nil,
          codec: .h264, profile: nil, level: "4.1", preset: "veryfast",
          fps: FrameRate(numerator: 30000, denominator: 1001)),
      ])
    #expect(profile.audio == AudioSettings(codec: .aac, bitrate: 96_000, channels: 1, sampleRate: 44_100))
    #expect(profile.encryption.method == .aes128)
    #expect(profile.encryption.keyURI.text == "https://keys.example/k")
    #expect(profile.encryption.iv == .random)
  }

  @Test func minimalProfileGetsDefaults() throws {
    let profile = try load(P.profile(["audio": "{}", "encryption": #"{"method": "aes-128"}"#]))
    #expect(profile.inputs.isEmpty)
    #expect(profile.output == nil)
    #expect(profile.segment.container == .ts)
    #expect(profile.segment.iFramePlaylists && !profile.segment.checksums)
    let rung = try #require(profile.video.last)
    #expect(rung.codec == .h264)
    #expect(rung.preset == "veryfast")
    #expect(rung.profile == nil && rung.level == nil && rung.fps == nil && rung.maxrate == nil && rung.bufsize == nil)
    #expect(profile.audio == AudioSettings(codec: .aac, bitrate: 128_000, channels: 2, sampleRate: 48_000))
    #expect(profile.encryption.method == .aes128)
    #expect(profile.encryption.keyURI == .keyFile)
    #expect(profile.encryption.iv == .random)
    #expect(profile.encryption.sessionKey)
  }

  /// Session keys by default (RFC 8216bis §4.4.6.5), but not every future key of a rotation up front.
  @Test func sessionKeysUnlessKeysRotate() throws {
    let rotating = P.profile(["encryption": #"{"method": "aes-128", "rotate_every": 2}"#])
    #expect(try !load(rotating).encryption.sessionKey)
    let asked = P.profile(["encryption": #"{"method": "aes-128", "rotate_every": 2, "session_key": true}"#])
    #expect(try load(asked).encryption.sessionKey)
    let declined = P.profile(["encryption": #"{"method": "sample-aes", "session_key": false}"#])
    #expect(try !load(declined).encryption.sessionKey)
  }

  /// HDCP-LEVEL by picture size with FairPlay (Apple HLS Authoring Spec 13.5–13.7), otherwise only when asked.
  @Test func hdcpLevels() throws {
    let fairPlay = P.profile([
      "video": "[\(P.firstRung)]", "encryption": #"{"method": "sample-aes", "fairplay": true}"#,
    ])
    #expect(try load(fairPlay).encryption.hdcp == .byResolution)
    #expect(try load(P.profile(["encryption": #"{"method": "aes-128"}"#])).encryption.hdcp == .omitted)
    let fixed = P.profile(["encryption": #"{"method": "aes-128", "hdcp_level": "type-1"}"#])
    #expect(try load(fixed).encryption.hdcp == .fixed(.type1))
    let omitted = P.profile([
      "video": "[\(P.firstRung)]", "encryption": #"{"method": "sample-aes", "fairplay": true, "hdcp_level": "omit"}"#,
    ])
    #expect(try load(omitted).encryption.hdcp == .omitted)
  }

  @Test func sequenceIVs() throws {
    let oneRung = P.profile(["video": "[\(P.firstRung)]", "encryption": #"{"method": "aes-128", "iv": "sequence"}"#])
    #expect(try load(oneRung).encryption.iv == .sequence)
    // With a key per rendition no (key, IV) pair repeats, alternate audio or not.
    let keyPerRendition = P.profile([
      "audio": #"[{"name": "Main", "language": "en"}]"#,
      "encryption": #"{"method": "aes-128", "iv": "sequence", "scope": "rendition"}"#,
    ])
    #expect(try load(keyPerRendition).encryption.iv == .sequence)
  }

  /// RFC 8216bis §4.4.6.1.1: AUTOSELECT=YES members of a group should differ in an
  /// attribute a player can choose by; alike ones are allowed, with a warning.
  @Test func autoselectMembersThatNothingTellsApartDrawAWarning() throws {
    let alike = try load(
      P.profile([
        "audio":
          #"[{"name": "Main", "language": "en", "channels": 6}, {"name": "Stereo", "language": "en"}, {"name": "Deutsch", "language": "de"}]"#,
        "subtitles":
          #"[{"name": "English", "language": "en", "file": "a.vtt"}, {"name": "English SDH", "language": "en", "id": "en-sdh", "file": "b.vtt"}]"#,
      ]))
    #expect(
      alike.warnings == [
        #"audio[0] and audio[1] are both AUTOSELECT=YES with language "en" in group audio-aac, so a player cannot choose between them; set "autoselect": false on one"#,
        #"subtitles[0] and subtitles[1] are both AUTOSELECT=YES with language "en", so a player cannot choose between them; set "autoselect": false on one"#,
      ])
    let apart = try load(
      P.profile([
        "audio":
          #"[{"name": "Main", "language": "en", "channels": 6}, {"name": "Stereo", "language": "en", "autoselect": false}]"#,
        "subtitles":
          #"[{"name": "English", "language": "en", "file": "a.vtt"}, {"name": "Signs", "language": "en", "id": "en-signs", "forced": true, "file": "b.vtt"}]"#,
      ]))
    #expect(apart.warnings.isEmpty, "\(apart.warnings)")
  }

  @Test func absentSectionsMeanNoAudioAndNoEncryption() throws {
    let profile = try load(P.profile())
    #expect(profile.audio == nil)
    #expect(profile.encryption == .none)
    #expect(profile.video.map(\.name) == ["low", "high"])
  }

  /// A seed also makes encoding bit-exact, so a clear package may have one, as `--seed` allows.
  @Test func seedIsAcceptedWithoutEncryption() throws {
    let profile = try load(P.profile(["encryption": #"{"method": "none", "seed": "fixture"}"#]))
    #expect(profile.encryption.method == .none && profile.encryption.seed == "fixture")
  }

  /// Decimal NTSC rates become their exact /1001 fractions, so frame times never drift.
  @Test(arguments: [
    ("29.97", FrameRate(numerator: 30000, denominator: 1001)),
    ("23.976", FrameRate(numerator: 24000, denominator: 1001)),
    ("59.94", FrameRate(numerator: 60000, denominator: 1001)),
    (#""30000/1001""#, FrameRate(numerator: 30000, denominator: 1001)),
    ("25", FrameRate(numerator: 25, denominator: 1)),
    ("120", FrameRate(numerator: 120, denominator: 1)),
    ("12.5", FrameRate(numerator: 25, denominator: 2)),
    ("7.5", FrameRate(numerator: 15, denominator: 2)),
    ("14.985", FrameRate(numerator: 2997, denominator: 200)),
  ])
  func frameRates(json: String, expected: FrameRate) throws {
    let profile = try load(P.profile(rung: ["fps": json]))
    #expect(profile.video.last?.fps == expected)
  }

  @Test(arguments: [(#""3.1""#, "3.1"), ("4.1", "4.1"), ("3", "3.0"), (#""1b""#, "1b")])
  func levels(json: String, expected: String) throws {
    // A picture and a rate that even level 1b allows (99 macroblocks, 160 kbit/s for High).
    let profile = P.profile(rung: ["level": json, "width": "176", "height": "144", "bitrate": "100000"])
    #expect(try load(profile).video.last?.level == expected)
  }

  @Test(arguments: rejections)
  func rejects(_ c: Rejection) {
    let error = #expect(throws: ProfileError.self) { try load(c.json) }
    #expect(error?.file == "test.json")
    #expect(error?.path == c.path, "\(String(describing: error))")
    #expect(error?.message.contains(c.message) == true, "\(String(describing: error))")
  }

  @Test func unreadableFileNamesTheFile() throws {
    let folder = try TemporaryFolder()
    let missing = folder.url.appendingPathComponent("missing.json")
    let error = #expect(throws: ProfileError.self) { try ProfileLoader.load(contentsOf: missing) }
    #expect(error?.file == missing.path)
    #expect(error?.path == "$")
    #expect(error?.message.hasPrefix("cannot read the file") == true)
  }

  @Test(arguments: ["360p", "a", "v1.high_q-2", String(repeating: "x", count: 64)])
  func safeNames(_ name: String) {
    #expect(ProfileLoader.isSafePathComponent(name))
  }

  @Test(arguments: [
    "", ".", "..", "../x", ".hidden", "-x", "a/b", "a\\b", "a b", "é", String(repeating: "x", count: 65),
  ])
  func unsafeNames(_ name: String) {
    #expect(!ProfileLoader.isSafePathComponent(name))
  }
}
