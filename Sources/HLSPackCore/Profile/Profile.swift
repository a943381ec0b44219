import Foundation

/// What to make of each input: the ladder, the segmenting and the encryption.
/// Built only by `ProfileLoader`, so every value here has been validated.
public struct Profile: Sendable, Equatable {
  /// Inputs named by the profile, already resolved against the profile's folder.
  public var inputs: [URL]
  /// The output folder named by the profile, resolved against the profile's folder.
  public var output: URL?
  public var segment: SegmentSettings
  public var video: [VideoRung]
  /// Audio muxed into every video rendition (`audio` given as one object).
  public var audio: AudioSettings?
  /// Separate audio renditions in EXT-X-MEDIA groups (`audio` given as a list).
  public var audioRenditions: [AudioRendition] = []
  /// An audio-only EXT-X-STREAM-INF per audio group.
  public var audioOnlyVariants = false
  public var subtitles: [SubtitleTrack] = []
  /// Warn when no variant's BANDWIDTH is at or below this (offline downloads start low).
  public var lowVariantBandwidth = 265_000
  /// Test labels burned into every encoded rung (`hlspack fixture make`).
  public var labels = false
  public var encryption: EncryptionSettings

  /// Packaging only: every rung copies its source's video.
  public var copiesVideo: Bool { video.allSatisfy { $0.codec == .copy } }
}

public enum Container: String, Sendable, Equatable, CaseIterable {
  case ts
  case fmp4

  /// File extension of media segments.
  public var segmentExtension: String { self == .ts ? "ts" : "m4s" }
}

public struct SegmentSettings: Sendable, Equatable {
  /// Target segment duration in seconds; IDR frames are forced at every multiple of it.
  public var duration: Double
  public var container: Container
  /// Write an I-frame playlist per video rendition (trick play).
  public var iFramePlaylists: Bool
  /// Record every segment's SHA-256 in report.json (costs a hash of every written byte).
  public var checksums: Bool
  /// Where EXT-X-PROGRAM-DATE-TIME starts; nil writes none.
  public var programDateTime: ProgramDateTimeStart?

  public init(
    duration: Double, container: Container, iFramePlaylists: Bool = true, checksums: Bool = false,
    programDateTime: ProgramDateTimeStart? = nil
  ) {
    self.duration = duration
    self.container = container
    self.iFramePlaylists = iFramePlaylists
    self.checksums = checksums
    self.programDateTime = programDateTime
  }
}

/// The wall-clock time of the presentation's first frame (`segment.program_date_time`).
public enum ProgramDateTimeStart: Sendable, Equatable {
  /// The source file's creation time (its container's `creation_time`).
  case source
  case fixed(ProgramDateTime)
}

public enum VideoCodec: String, Sendable, Equatable, CaseIterable {
  case h264
  /// libx265; tagged `hvc1` in fMP4 (Apple plays `hev1` with sound and no picture).
  case hevc
  /// No encoding: the source's video packets as they are, cut at its keyframes.
  case copy
}

public struct VideoRung: Sendable, Equatable {
  public var name: String
  public var width: Int
  public var height: Int
  public var bitrate: Int
  public var maxrate: Int?
  public var bufsize: Int?
  public var codec: VideoCodec
  /// Profile name as the encoder knows it (x264: `baseline`, `main`, `high`;
  /// x265: `main`); nil = encoder default.
  public var profile: String?
  /// Level as written in the profile (`"3.1"`); nil = chosen by the encoder.
  public var level: String?
  public var preset: String
  /// Output frame rate; nil keeps the source's.
  public var fps: FrameRate?
  /// Copy rungs only: this rendition's own pre-encoded source, instead of the asset's input.
  public var source: URL?
  /// A source of another shape: stretched to the rung, or padded.
  public var fit: PictureFit = .stretch

  public init(
    name: String, width: Int, height: Int, bitrate: Int, maxrate: Int? = nil, bufsize: Int? = nil,
    codec: VideoCodec = .h264, profile: String? = nil, level: String? = nil, preset: String = "veryfast",
    fps: FrameRate? = nil, source: URL? = nil
  ) {
    self.name = name
    self.width = width
    self.height = height
    self.bitrate = bitrate
    self.maxrate = maxrate
    self.bufsize = bufsize
    self.codec = codec
    self.profile = profile
    self.level = level
    self.preset = preset
    self.fps = fps
    self.source = source
  }
}

public enum AudioCodec: String, Sendable, Equatable, CaseIterable {
  case aac
  /// FFmpeg's native AC-3 encoder (Dolby Digital), up to 5.1.
  case ac3
  /// The source's audio packets as they are (with copy rungs).
  case copy
}

public struct AudioSettings: Sendable, Equatable {
  public var codec: AudioCodec
  public var bitrate: Int
  public var channels: Int
  public var sampleRate: Int
}

/// Which audio track of the source a rendition takes.
public enum AudioTrackSelector: Sendable, Equatable {
  /// The n-th audio stream of the source, from 0.
  case index(Int)
  /// The first audio stream whose language tag is this (ISO 639-2 or BCP 47 primary subtag).
  case language(String)
}

/// One alternate audio rendition: its own media playlist in an EXT-X-MEDIA group.
public struct AudioRendition: Sendable, Equatable {
  /// Folder name under `audio/`.
  public var id: String
  /// EXT-X-MEDIA NAME.
  public var name: String
  /// BCP 47 language tag.
  public var language: String
  public var settings: AudioSettings
  public var track: AudioTrackSelector
  public var isDefault: Bool
  public var autoselect: Bool

  /// Renditions of one codec share a group (RFC 8216bis §4.4.6.1.1, §4.4.6.2).
  public var groupID: String { "audio-\(settings.codec.rawValue)" }
}

/// A sidecar subtitle file (WebVTT, or SRT converted to WebVTT).
public struct SubtitleTrack: Sendable, Equatable {
  /// Folder name under `subtitles/`.
  public var id: String
  public var name: String
  public var language: String
  /// The file (resolved against the profile's folder); `{stem}` in it is
  /// replaced by the input's file stem.
  public var file: String
  public var isDefault: Bool
  public var autoselect: Bool
  public var forced: Bool

  public static let groupID = "subtitles"
}

public enum EncryptionMethod: String, Sendable, Equatable, CaseIterable {
  case none
  /// The whole segment, AES-128-CBC with PKCS#7.
  case aes128 = "aes-128"
  /// Elementary streams encrypted inside the segment (Apple's SAMPLE-AES for MPEG-TS).
  case sampleAES = "sample-aes"
}

public enum IVMode: Sendable, Equatable {
  /// An explicit, unpredictable IV per segment (written as IV=0x...); derived from the seed when one is set.
  case random
  /// No IV attribute: clients derive it from the media sequence number (RFC 8216 §5.2).
  case sequence
  /// The same explicit IV on every segment, to match another tool; IVs repeat.
  case fixed([UInt8])
}

/// Where the key bytes come from.
public enum KeySource: Sendable, Equatable {
  /// OpenSSL's CSPRNG, or derived from the seed when one is set.
  case generated
  /// One given key (from `key_file`, `key_hex`, `key_env` or `key_info`), already read.
  case fixed([UInt8])
}

public enum KeyScope: String, Sendable, Equatable, CaseIterable {
  /// One key (per period) for every rendition of an asset.
  case asset
  /// A different key (per period) for each rendition.
  case rendition
}

public struct EncryptionSettings: Sendable, Equatable {
  public var method: EncryptionMethod
  public var keySource: KeySource
  /// The key id of a single key; nil = generated (or derived from the seed).
  public var keyID: [UInt8]?
  public var scope: KeyScope
  public var keyURI: KeyURITemplate
  /// A new key every N segments, at the same indices in every rendition.
  public var rotateEvery: Int?
  public var iv: IVMode
  /// KEYFORMAT / KEYFORMATVERSIONS, written only when set (absent means "identity" / "1").
  public var keyFormat: String?
  public var keyFormatVersions: String?
  /// Derives keys, key ids and IVs deterministically and makes encoding bit-exact.
  public var seed: String?
  /// Put key bytes into keys.json (which is then mode 0600).
  public var exportKeys: Bool
  /// Write an FFmpeg key-info file per rendition and key period.
  public var writeKeyInfo: Bool
  /// Where key files, keys.json and key-info files go instead of the asset,
  /// in a folder per asset (`<keysFolder>/<asset>/`); nil: inside the asset.
  public var keysFolder: URL?
  /// FairPlay signalling: KEYFORMAT com.apple.streamingkeydelivery, version 1, no IV attribute.
  public var fairPlay: Bool
  /// EXT-X-SESSION-KEY in the master playlist for every distinct key tag.
  public var sessionKey: Bool
  /// HDCP-LEVEL on the video variants.
  public var hdcp: HDCPPolicy = .omitted
  /// The first N segments of every rendition stay clear (METHOD=NONE).
  public var clearLeadSegments: Int
  /// Key files read from the profile that users other than their owner can open.
  public var exposedKeyFiles: [String] = []
  /// Every file the key came from (key_file; key_info and the key file it
  /// names): files of the run, which `--force` never deletes.
  public var keyFiles: [String] = []

  public init(
    method: EncryptionMethod, keySource: KeySource = .generated, keyID: [UInt8]? = nil, scope: KeyScope = .asset,
    keyURI: KeyURITemplate = .keyFile, rotateEvery: Int? = nil, iv: IVMode = .random, keyFormat: String? = nil,
    keyFormatVersions: String? = nil, seed: String? = nil, exportKeys: Bool = false, writeKeyInfo: Bool = false,
    fairPlay: Bool = false, sessionKey: Bool = false, clearLeadSegments: Int = 0
  ) {
    self.method = method
    self.keySource = keySource
    self.keyID = keyID
    self.scope = scope
    self.keyURI = keyURI
    self.rotateEvery = rotateEvery
    self.iv = iv
    self.keyFormat = keyFormat
    self.keyFormatVersions = keyFormatVersions
    self.seed = seed
    self.exportKeys = exportKeys
    self.writeKeyInfo = writeKeyInfo
    self.fairPlay = fairPlay
    self.sessionKey = sessionKey
    self.clearLeadSegments = clearLeadSegments
  }

  public static let none = EncryptionSettings(method: .none)

  /// Why the key URI cannot work with `keysFolder`, if it cannot: `{key_file}`
  /// is a path from the playlist to a key file inside the asset.
  public var keysFolderConflict: String? {
    guard keysFolder != nil, keyURI.text.contains("{key_file}") else { return nil }
    return "keeps the keys out of the asset, but key_uri \"\(keyURI.text)\" names key files inside it with {key_file}; "
      + "use a URI your key server or app resolves, such as skd://{key_id} or https://keys.example.com/{key_id}"
  }
}

/// A frame rate as an exact fraction, so frame times and IDR positions never drift.
public struct FrameRate: Sendable, Equatable, CustomStringConvertible {
  public var numerator: Int
  public var denominator: Int

  /// The largest numerator or denominator a profile may give.
  public static let largestTerm = 1_000_000

  public init(numerator: Int, denominator: Int) {
    self.numerator = numerator
    self.denominator = denominator
  }

  public var value: Double { Double(numerator) / Double(denominator) }
  public var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }

  /// The broadcast or film rate within 0.03 % of `value` (half the gap
  /// between 29.97 and 30), if any: rounded timestamps and phone clocks put
  /// 29.97 or 30 fps material a little off.
  public static func nominal(near value: Double) -> FrameRate? {
    let rates = [
      (24000, 1001), (24, 1), (25, 1), (30000, 1001), (30, 1), (48, 1), (50, 1), (60000, 1001), (60, 1), (100, 1),
      (120000, 1001), (120, 1),
    ]
    .map { FrameRate(numerator: $0.0, denominator: $0.1) }
    return rates.first { abs($0.value - value) <= $0.value * 0.0003 }
  }
}
