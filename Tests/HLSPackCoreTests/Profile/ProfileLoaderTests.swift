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

  static let rejections: [Rejection] = [
    // Unknown or misspelt fields never pass silently.
    Rejection(P.profile(["colour": #""red""#]), "$.colour", "unknown field"),
    Rejection(P.profile(rung: ["bitrat": "3000000"]), "$.video[1].bitrat", "unknown field"),
    Rejection(P.profile(["segment": #"{"duration": 6, "length": 6}"#]), "$.segment.length", "unknown field"),
    // Wrong types.
    Rejection("[]", "$", "expected an object, found an array"),
    Rejection(P.profile(["version": #""1""#]), "$.version", "expected a number, found a string"),
    Rejection(P.profile(["segment": "6"]), "$.segment", "expected an object, found a number"),
    Rejection(P.profile(["video": "{}"]), "$.video", "expected an array, found an object"),
    Rejection(P.profile(["video": #"["low"]"#]), "$.video[0]", "expected an object, found a string"),
    Rejection(P.profile(rung: ["width": #""1280""#]), "$.video[1].width", "expected a number, found a string"),
    Rejection(P.profile(rung: ["width": "true"]), "$.video[1].width", "expected a number, found a boolean"),
    Rejection(P.profile(rung: ["name": "7"]), "$.video[1].name", "expected a string, found a number"),
    Rejection(P.profile(["inputs": "[1]"]), "$.inputs[0]", "expected a non-empty path string"),
    Rejection(P.profile(["output": #""""#]), "$.output", "must not be empty"),
    Rejection(P.profile(["audio": #"{"channels": "2"}"#]), "$.audio.channels", "expected a number, found a string"),
    Rejection(
      P.profile(["encryption": #"{"method": "aes-256"}"#]), "$.encryption.method", #"must be one of "none", "aes-128""#),
    Rejection(P.profile(["encryption": #"{"method": "aes-128", "iv": "zero"}"#]), "$.encryption.iv", #"found "zero""#),
    // Version.
    Rejection(P.profile(["version": "2"]), "$.version", "unsupported version 2"),
    Rejection(P.profile(["version": nil]), "$.version", "is required"),
    Rejection(P.profile(["version": "1.5"]), "$.version", "expected a whole number"),
    // Required sections.
    Rejection(P.profile(["segment": nil]), "$.segment", "is required"),
    Rejection(P.profile(["segment": "{}"]), "$.segment.duration", "is required"),
    Rejection(
      P.profile(["segment": #"{"duration": 0.5}"#]), "$.segment.duration", "must be from 1 to 60 seconds, found 0.5"),
    Rejection(P.profile(["segment": #"{"duration": 6, "container": "mkv"}"#]), "$.segment.container", #"found "mkv""#),
    Rejection(
      P.profile(["segment": #"{"duration": 6, "checksums": "yes"}"#]), "$.segment.checksums", "expected true or false"),
    Rejection(P.profile(["video": nil]), "$.video", "is required"),
    Rejection(P.profile(["video": "[]"]), "$.video", "one or more rungs"),
    // Picture size.
    Rejection(P.profile(rung: ["width": "1279"]), "$.video[1].width", "must be even for 4:2:0 video, found 1279"),
    Rejection(P.profile(rung: ["height": "719"]), "$.video[1].height", "must be even for 4:2:0 video, found 719"),
    Rejection(P.profile(rung: ["width": "8"]), "$.video[1].width", "from 16 to 8192, found 8"),
    Rejection(P.profile(rung: ["height": nil]), "$.video[1].height", "is required"),
    // Rates.
    Rejection(P.profile(rung: ["bitrate": "0"]), "$.video[1].bitrate", "from 1 to 2000000000, found 0"),
    Rejection(P.profile(rung: ["bitrate": "9999"]), "$.video[1].bitrate", "at least 10000 bit/s, found 9999"),
    Rejection(P.profile(rung: ["bitrate": "2500000.5"]), "$.video[1].bitrate", "expected a whole number"),
    Rejection(
      P.profile(rung: ["maxrate": "2000000"]), "$.video[1].maxrate", "at least the bitrate (3000000), found 2000000"),
    // Names become folder names.
    Rejection(P.profile(rung: ["name": #""low""#]), "$.video[1].name", #"duplicate rung name "low""#),
    Rejection(P.profile(rung: ["name": #""../x""#]), "$.video[1].name", #""../x" is not a safe folder name"#),
    Rejection(P.profile(rung: ["name": #"".hidden""#]), "$.video[1].name", #"".hidden" is not a safe folder name"#),
    Rejection(P.profile(rung: ["name": #""a/b""#]), "$.video[1].name", #""a/b" is not a safe folder name"#),
    Rejection(P.profile(rung: ["name": #""-x""#]), "$.video[1].name", #""-x" is not a safe folder name"#),
    Rejection(P.profile(rung: ["name": #""""#]), "$.video[1].name", "must not be empty"),
    Rejection(P.profile(rung: ["name": #""keys""#]), "$.video[1].name", "reserved for the key folder"),
    // Encoder settings.
    Rejection(P.profile(rung: ["level": #""3.3""#]), "$.video[1].level", #""3.3" is not a"#),
    Rejection(P.profile(rung: ["level": "true"]), "$.video[1].level", "expected a level"),
    // A level the rung breaks (H.264 Table A-1, HEVC Table A.8), as x264 would only warn.
    Rejection(
      P.profile(rung: ["width": "1920", "height": "1080", "level": #""3.0""#]), "$.video[1].level",
      "level 3.0 allows pictures of at most 1620 macroblocks; 1920x1080 has 8160"),
    Rejection(
      P.profile(rung: ["width": "1824", "height": "16", "level": #""3.0""#]), "$.video[1].level",
      "level 3.0 allows a picture side of at most 113 macroblocks; 1824x16 has 114"),
    Rejection(
      P.profile(rung: ["fps": "60", "level": #""3.1""#]), "$.video[1].level",
      "level 3.1 allows 108000 macroblocks per second; 1280x720 at 60 fps has 216000"),
    Rejection(
      P.profile(rung: ["bitrate": "15000000", "profile": #""main""#, "level": #""3.1""#]), "$.video[1].level",
      "level 3.1 allows at most 14000000 bit/s for this profile; the rung asks for 15000000"),
    Rejection(
      P.profile(rung: ["maxrate": "18000000", "level": #""3.1""#]), "$.video[1].level",
      "level 3.1 allows at most 17500000 bit/s for this profile; the rung asks for 18000000"),
    Rejection(
      P.profile(rung: ["codec": #""hevc""#, "width": "1920", "height": "1080", "level": #""3.0""#]), "$.video[1].level",
      "level 3.0 allows pictures of at most 552960 luma samples; 1920x1080 has 2073600"),
    Rejection(P.profile(rung: ["preset": #""fastest""#]), "$.video[1].preset", #"found "fastest""#),
    Rejection(P.profile(rung: ["profile": #""high10""#]), "$.video[1].profile", #"found "high10""#),
    Rejection(P.profile(rung: ["fps": "0"]), "$.video[1].fps", "0 is not a frame rate from 1 to 120"),
    Rejection(P.profile(rung: ["fps": #""30/0""#]), "$.video[1].fps", "expected a frame rate"),
    Rejection(
      P.profile(rung: ["fps": "12.3456"]), "$.video[1].fps",
      "12.3456 is not a frame rate from 1 to 120 with at most three decimals"),
    Rejection(P.profile(rung: ["fps": "0.5"]), "$.video[1].fps", "0.5 is not a frame rate from 1 to 120"),
    Rejection(P.profile(rung: ["fps": "121"]), "$.video[1].fps", "121 is not a frame rate from 1 to 120"),
    Rejection(P.profile(rung: ["fit": #""crop""#]), "$.video[1].fit", "crop"),
    Rejection(P.profile(rung: ["fps": #""1/2""#]), "$.video[1].fps", "expected a frame rate"),
    Rejection(
      P.profile(rung: ["fps": #""thirty""#]), "$.video[1].fps",
      #"expected a frame rate from 1 to 120 such as 25, 12.5, 29.97 or "30000/1001", found "thirty""#),
    // Audio.
    Rejection(
      P.profile(["audio": #"{"sample_rate": 44000}"#]), "$.audio.sample_rate", "44000 is not an AAC sample rate"),
    Rejection(P.profile(["audio": #"{"sample_rate": 7000}"#]), "$.audio.sample_rate", "from 8000 to 96000, found 7000"),
    Rejection(P.profile(["audio": #"{"channels": 0}"#]), "$.audio.channels", "from 1 to 8, found 0"),
    // The key URI is written inside URI="…" (RFC 8216bis §4.2): no quote, CR or LF.
    // The messages name the character and say the playlist "cannot quote" it.
    Rejection(
      P.profile(["encryption": #"{"method": "aes-128", "key_uri": "k\"ey"}"#]), "$.encryption.key_uri", "quote"),
    Rejection(
      P.profile(["encryption": #"{"method": "aes-128", "key_uri": "k\ney"}"#]), "$.encryption.key_uri", "quote"),
    Rejection(
      P.profile(["encryption": #"{"method": "aes-128", "key_uri": "k\rey"}"#]), "$.encryption.key_uri", "quote"),
    Rejection(P.profile(["encryption": #"{"method": "aes-128", "key_uri": ""}"#]), "$.encryption.key_uri", "empty"),
    // Strings the playlist writes as quoted strings (NAME="…") cannot end or break them (RFC 8216bis §4.2).
    Rejection(
      P.profile(["audio": #"[{"name": "Eng \"Director\"", "language": "en"}]"#]), "$.audio[0].name",
      "contains a double quote"),
    Rejection(
      P.profile(["audio": #"[{"name": "Eng\nX", "language": "en"}]"#]), "$.audio[0].name",
      "contains a line break (U+000A)"),
    Rejection(P.profile(["audio": #"[{"name": "", "language": "en"}]"#]), "$.audio[0].name", "must not be empty"),
    Rejection(
      P.profile(["audio": #"[{"name": "E", "language": "en", "id": "a\tb"}]"#]), "$.audio[0].id",
      "control character (U+0009)"),
    Rejection(
      P.profile(["subtitles": #"[{"name": "Sub \"x\"", "language": "en", "file": "s.vtt"}]"#]), "$.subtitles[0].name",
      "contains a double quote"),
    Rejection(
      P.profile(["subtitles": #"[{"name": "S\r", "language": "en", "file": "s.vtt"}]"#]), "$.subtitles[0].name",
      "line break (U+000D)"),
    Rejection(
      P.profile(["encryption": #"{"method": "aes-128", "keyformat": "com.x\r\n"}"#]), "$.encryption.keyformat",
      "line break"),
    Rejection(
      P.profile(["encryption": #"{"method": "aes-128", "keyformat": "a\"b"}"#]), "$.encryption.keyformat",
      "double quote"),
    Rejection(
      P.profile(["encryption": #"{"method": "aes-128", "hdcp_level": "type-2"}"#]), "$.encryption.hdcp_level", "type-1"),
    Rejection(
      P.profile(["encryption": #"{"method": "none", "hdcp_level": "type-0"}"#]), "$.encryption.hdcp_level",
      "nothing would be encrypted"),
    // FairPlay delivers one IV with each key: a per-segment sequence IV would be silently ignored.
    Rejection(
      P.profile([
        "video": "[\(P.firstRung)]", "encryption": #"{"method": "sample-aes", "fairplay": true, "iv": "sequence"}"#,
      ]),
      "$.encryption.iv", #""sequence" cannot be used with fairplay"#),
    // One key and sequence IVs would encrypt every rendition's first block (the same PAT) alike
    // (docs/conformance.md, IVs).
    Rejection(
      P.profile(["encryption": #"{"method": "aes-128", "iv": "sequence"}"#]), "$.encryption.iv",
      "would repeat (key, IV) pairs"),
    // An alternate audio rendition shares the video's key as much as a second rung does.
    Rejection(
      P.profile([
        "video": "[\(P.firstRung)]", "audio": #"[{"name": "Main", "language": "en"}]"#,
        "encryption": #"{"method": "aes-128", "iv": "sequence"}"#,
      ]),
      "$.encryption.iv", "one key for 2 renditions would repeat (key, IV) pairs"),
    Rejection(P.profile(["encryption": #"{"key_uri": "https://k"}"#]), "$.encryption.key_uri", #"method is "none""#),
    Rejection(
      P.profile(["encryption": #"{"method": "none", "key_uri": "https://k"}"#]), "$.encryption.key_uri",
      "nothing would be encrypted"),
    Rejection(
      P.profile(["encryption": #"{"method": "sample-aes"}"#], rung: ["codec": #""hevc""#, "profile": #""main""#]),
      "$.video[1].codec",
      "\"sample-aes\" in MPEG-TS encrypts H.264 only"),
    // null is no value (the schema allows it nowhere): a templated profile
    // that writes it for "method" must not publish in the clear with exit 0.
    Rejection(P.profile(["encryption": #"{"method": null}"#]), "$.encryption.method", "is null, which no field takes"),
    Rejection(P.profile(["encryption": "null"]), "$.encryption", "is null"),
    Rejection(P.profile(["audio": "null"]), "$.audio", "is null"),
    Rejection(
      P.profile(["encryption": #"{"method": "sample-aes", "fairplay": null}"#]), "$.encryption.fairplay", "is null"),
    Rejection(P.profile(rung: ["bitrate": "null"]), "$.video[1].bitrate", "is null"),
    Rejection(P.profile(["inputs": "null", "subtitles": "null"]), "$.inputs", "is null"),
    Rejection(P.profile(["inputs": "[null]"]), "$.inputs[0]", "expected a non-empty path string"),
    // Not JSON at all.
    Rejection(#"{"version": 1,"#, "$", "not valid JSON"),
    // Strict JSON: no trailing commas, no key twice (which value counts is undefined). More in ProfileJSONSyntaxTests.
    Rejection(
      "{\"version\": 1,\n \"segment\": {\"duration\": 6,},\n \"video\": []}", "$.segment",
      #"line 2, column 27: a comma before "}""#),
    Rejection(P.profile(["video": "[\(P.firstRung),]"]), "$.video", #"a comma before "]""#),
    Rejection(
      P.profile(["segment": #"{"duration": 4, "duration": -1}"#]), "$.segment.duration",
      #"line 1, column 43: duplicate key "duration""#),
    Rejection(P.profile(["segment": #"{"duration": 4, "d\u0075ration": 4}"#]), "$.segment.duration", "duplicate key"),
    Rejection(P.profile(["video": #"[{"name": "a", "x": [{"k": 1, "k": 2}]}]"#]), "$.video[0].x[0].k", "duplicate key"),
    Rejection("", "$", "not valid JSON"),
  ]

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
