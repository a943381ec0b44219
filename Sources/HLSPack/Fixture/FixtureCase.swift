import Foundation

/// One package of the fixture matrix: what it tests, and the profile that
/// makes it through the normal pipeline. Each case changes the base profile
/// (`FixtureProfile`) in a few fields; nothing else is special about it.
struct FixtureCase {
  var id: String
  /// What it tests and what a correct player does.
  var description: String
  var method: String
  var container: String
  var videoCodec: String
  /// From `FixtureFeature`'s vocabulary (docs/fixture.md).
  var features: [FixtureFeature]
  /// The `Profiles/scenarios/` file to serve it with, where one applies.
  var scenario: String?
  /// Fields set over the base profile's, as JSON values.
  var overrides: [String: Any]
  /// Extra encryption fields (over `{"method": method}`).
  var encryption: [String: Any] = [:]
  /// An asset joined from parts of the labelled source, each clear (true) or
  /// encrypted as the case says; empty for the source packaged once.
  var parts: [Bool] = []
}

/// The documented vocabulary of `features` in fixtures.json.
enum FixtureFeature: String, Sendable, CaseIterable {
  case clear, aes128 = "aes-128", sampleAES = "sample-aes", ts, fmp4
  case ladder, keyRotation = "key-rotation", clearLead = "clear-lead", sessionKey = "session-key"
  case alternateAudio = "alternate-audio", subtitles, iframes, hevc, customScheme = "custom-scheme"
  case fairplay, cbcs
  case singleFile = "single-file"
  case encryptedInit = "encrypted-init"
  case clearPreRoll = "clear-pre-roll"
  case av1
  case programDateTime = "program-date-time"
  case hdr10, hlg
}

extension FixtureCase {
  /// The matrix, in catalogue order.
  static var matrix: [FixtureCase] {
    [
    FixtureCase(
      id: "clear-ts", description: "Clear H.264 + AAC in MPEG-TS, one rendition: the baseline every player must play.",
      method: "none", container: "ts", videoCodec: "avc1", features: [.clear, .ts], overrides: [:]),
    FixtureCase(
      id: "aes128-ts-ladder",
      description:
        "AES-128 MPEG-TS, three renditions (720p, 480p, 360p), one key per rendition: the player fetches each rendition's key when it switches, and the labels show which rendition is on screen.",
      method: "aes-128", container: "ts", videoCodec: "avc1", features: [.aes128, .ts, .ladder],
      scenario: "abr-bandwidth-drop.json", overrides: ["video": FixtureProfile.ladder],
      encryption: ["scope": "rendition"]),
    FixtureCase(
      id: "aes128-fmp4",
      description:
        "AES-128 whole-segment encryption of fMP4 segments (the init segment stays clear): players that decrypt only TS fail here.",
      method: "aes-128", container: "fmp4", videoCodec: "avc1", features: [.aes128, .fmp4], overrides: [:]),
    FixtureCase(
      id: "sample-aes-ts",
      description: "SAMPLE-AES MPEG-TS (H.264 and AAC, packets and headers clear): the player decrypts sample by sample.",
      method: "sample-aes", container: "ts", videoCodec: "avc1", features: [.sampleAES, .ts], overrides: [:]),
    FixtureCase(
      id: "fairplay-cbcs-fmp4",
      description:
        "SAMPLE-AES fMP4 (cbcs) with FairPlay signalling (skd:// key URIs, KEYFORMAT=\"com.apple.streamingkeydelivery\"): a FairPlay player asks its key server; the keys are listed here for test servers.",
      method: "sample-aes", container: "fmp4", videoCodec: "avc1", features: [.sampleAES, .fmp4, .cbcs, .fairplay],
      scenario: "fairplay-skd-keys.json", overrides: [:],
      encryption: ["fairplay": true, "key_uri": "skd://{key_id}"]),
    FixtureCase(
      id: "hevc-fmp4", description: "Clear HEVC tagged hvc1 in fMP4 with AAC: plays with picture on Apple players (hev1 would not).",
      method: "none", container: "fmp4", videoCodec: "hvc1", features: [.clear, .fmp4, .hevc],
      overrides: ["video": [FixtureProfile.rung("360p", 640, 360, 500_000, codec: "hevc")]]),
    FixtureCase(
      id: "key-rotation",
      description:
        "AES-128 TS with a new key every 2 segments: the player fetches each key as its EXT-X-KEY changes; fixtures.json lists every key.",
      method: "aes-128", container: "ts", videoCodec: "avc1", features: [.aes128, .ts, .keyRotation],
      scenario: "key-outage-and-missing-segment.json", overrides: [:], encryption: ["rotate_every": 2]),
    FixtureCase(
      id: "clear-lead",
      description:
        "Two clear segments, then AES-128: the player starts at once and switches to decrypting without a stall (METHOD=NONE, then AES-128).",
      method: "aes-128", container: "ts", videoCodec: "avc1", features: [.aes128, .ts, .clearLead], overrides: [:],
      encryption: ["clear_lead_segments": 2]),
    FixtureCase(
      id: "session-key",
      description:
        "EXT-X-SESSION-KEY in the multivariant playlist: a player may fetch the key before the media playlist (offline download, FairPlay preloading).",
      method: "aes-128", container: "ts", videoCodec: "avc1", features: [.aes128, .ts, .sessionKey],
      scenario: "offline-download-key-persists.json", overrides: [:], encryption: ["session_key": true]),
    FixtureCase(
      id: "custom-scheme",
      description:
        "AES-128 with key URIs of an app's own scheme (hlspack-test://): an app resolves them itself (AVAssetResourceLoader, a custom DataSource) with the keys listed here; a plain player cannot.",
      method: "aes-128", container: "ts", videoCodec: "avc1", features: [.aes128, .ts, .customScheme], overrides: [:],
      encryption: ["key_uri": "hlspack-test://{asset}/{key_id}"]),
    FixtureCase(
      id: "alternate-audio-subtitles",
      description:
        "Alternate audio in two languages (English: a 440 Hz tone, French: a 660 Hz tone, both with the sync beeps) and WebVTT subtitles whose cues show their own media time: the player switches audio and shows each cue at the time it names.",
      method: "aes-128", container: "ts", videoCodec: "avc1", features: [.aes128, .ts, .alternateAudio, .subtitles],
      overrides: ["audio": FixtureProfile.alternateAudio, "subtitles": FixtureProfile.subtitles]),
    FixtureCase(
      id: "iframes",
      description:
        "AES-128 TS with I-frame playlists (EXT-X-I-FRAME-STREAM-INF): trick play and thumbnails decrypt byte ranges of encrypted segments.",
      method: "aes-128", container: "ts", videoCodec: "avc1", features: [.aes128, .ts, .iframes],
      overrides: ["segment": FixtureProfile.segment(container: "ts", iFrames: true)]),
    FixtureCase(
      id: "single-file-aes128-fmp4",
      description:
        "AES-128 fMP4 in one file per rendition: the init section and every segment are byte ranges of media.mp4 (EXT-X-MAP BYTERANGE, EXT-X-BYTERANGE), each encrypted range padded on its own with its own IV, and I-frame playlists address the same file: the player fetches and decrypts range by range (hls.js #4933 failed AES-128 fMP4 byte ranges outside Safari).",
      method: "aes-128", container: "fmp4", videoCodec: "avc1", features: [.aes128, .fmp4, .singleFile, .iframes],
      overrides: [
        "segment": FixtureProfile.segment(container: "fmp4", iFrames: true).merging(["single_file": true]) { $1 }
      ]),
    FixtureCase(
      id: "aes128-fmp4-encrypted-init",
      description:
        "AES-128 fMP4 whose init segment is encrypted too: an EXT-X-KEY with its own explicit IV stands before the EXT-X-MAP, and the player decrypts the init segment with that key and IV, then each segment with its own IV (RFC 8216bis 4.4.4.5). Players that take the init segment to be clear, or decrypt it with the first segment's IV, fail.",
      method: "aes-128", container: "fmp4", videoCodec: "avc1", features: [.aes128, .fmp4, .encryptedInit],
      overrides: [:], encryption: ["encrypt_init": true]),
    FixtureCase(
      id: "clear-pre-roll",
      description:
        "A clear pre-roll joined to AES-128 content in one playlist (the labelled source twice, the first time clear): EXT-X-DISCONTINUITY between them, the key from the content on. The player plays through the switch without a stall, and the frame counter starts again after it.",
      method: "aes-128", container: "ts", videoCodec: "avc1", features: [.aes128, .ts, .clearPreRoll], overrides: [:],
      parts: [true, false]),
    FixtureCase(
      id: "av1-aes128-fmp4",
      description:
        "AES-128 fMP4 with AV1 video (av01, SVT-AV1) and AAC: a player that decodes AV1 and decrypts fMP4 plays it; the CODECS entry lets others skip the variant.",
      method: "aes-128", container: "fmp4", videoCodec: "av01", features: [.aes128, .fmp4, .av1],
      // SVT-AV1's fastest preset keeps `fixture make` quick.
      overrides: ["video": [FixtureProfile.rung("360p", 640, 360, 500_000, codec: "av1").merging(["preset": 13]) { $1 }]]),
    FixtureCase(
      id: "program-date-time",
      description:
        "The clear pre-roll and AES-128 content of clear-pre-roll, with EXT-X-PROGRAM-DATE-TIME: 2026-01-01T00:00:00.000Z on the first segment and again after the discontinuity, where the date-time runs on (the pre-roll's length later) while the labels' media time starts again. A player that shows wall-clock time shows 00:00:00 plus the time since the playlist's start, the same on every rendition.",
      method: "aes-128", container: "ts", videoCodec: "avc1", features: [.aes128, .ts, .clearPreRoll, .programDateTime],
      overrides: [
        "segment": FixtureProfile.segment(container: "ts", iFrames: false)
          .merging(["program_date_time": "2026-01-01T00:00:00Z"]) { $1 }
      ],
      parts: [true, false]),
    hdr(
      "hdr10-hevc-fmp4", range: "pq", feature: .hdr10,
      description:
        "HDR10: HEVC Main 10 in fMP4 (hvc1) whose pictures are the labelled source placed in PQ (BT.2020, SMPTE ST 2084, SDR white at 203 cd/m² as ITU-R BT.2408 maps it) with a mastering display (content light level unknown), and VIDEO-RANGE=PQ in the master. An HDR display shows the colours of the SDR fixtures at the brightness of SDR white; a player that decodes the pictures but ignores their transfer shows them dim and washed out, and one that cannot decode Main 10 skips the variant."
    ),
    hdr(
      "hlg-hevc-fmp4", range: "hlg", feature: .hlg,
      description:
        "HLG: HEVC Main 10 in fMP4 (hvc1) whose pictures are the labelled source placed in HLG (BT.2020, ARIB STD-B67, SDR white at 75 % of the signal as ITU-R BT.2408 maps it), and VIDEO-RANGE=HLG in the master. An HDR display shows the colours of the SDR fixtures; an SDR display that takes HLG for SDR still shows a watchable, slightly dim picture (HLG's backward compatibility), and a player that cannot decode Main 10 skips the variant."
    ),
    ]
  }

  static var ids: [String] { matrix.map(\.id) }

  /// A clear fMP4 case of one 360p HEVC Main 10 rung made HDR from the labelled source (`video_range`).
  private static func hdr(_ id: String, range: String, feature: FixtureFeature, description: String) -> FixtureCase {
    FixtureCase(
      id: id, description: description, method: "none", container: "fmp4", videoCodec: "hvc1",
      features: [.clear, .fmp4, .hevc, feature],
      overrides: [
        "video": [FixtureProfile.rung("360p", 640, 360, 500_000, codec: "hevc").merging(["video_range": range]) { $1 }]
      ])
  }
}
