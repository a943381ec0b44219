/// `report.json`: what was written for one asset. Never holds key bytes.
public struct AssetReport: Sendable, Codable, Equatable {
  public struct Tool: Sendable, Codable, Equatable {
    /// What marks a folder as an asset hlspack wrote (which `--force` may replace).
    public static let hlspack = "hlspack"
    public var name = Tool.hlspack
    public var version: String
  }

  public struct Key: Sendable, Codable, Equatable {
    public var keyID: String
    public var uri: String
    /// Path of the key file inside the asset, or inside the asset's keys
    /// folder when the keys are kept out of it (`encryption.keys_dir`).
    public var file: String

    enum CodingKeys: String, CodingKey {
      case keyID = "key_id"
      case uri, file
    }

    public init(keyID: String, uri: String, file: String) {
      self.keyID = keyID
      self.uri = uri
      self.file = file
    }
  }

  public struct Segment: Sendable, Codable, Equatable {
    public var uri: String
    public var duration: Double
    public var bytes: Int
    /// Of the bytes as written; only with `segment.checksums`.
    public var sha256: String?
    public var iv: String?
    public var keyID: String?
    /// `length@offset` in the rendition's single file (`segment.single_file`).
    public var byteRange: String?

    enum CodingKeys: String, CodingKey {
      case uri, duration, bytes, sha256, iv
      case keyID = "key_id"
      case byteRange = "byte_range"
    }

    public init(
      uri: String, duration: Double, bytes: Int, sha256: String?, iv: String?, keyID: String?,
      byteRange: String? = nil
    ) {
      self.uri = uri
      self.duration = duration
      self.bytes = bytes
      self.sha256 = sha256
      self.iv = iv
      self.keyID = keyID
      self.byteRange = byteRange
    }
  }

  public struct Rendition: Sendable, Codable, Equatable {
    public var name: String
    public var playlist: String
    public var bandwidth: Int
    public var averageBandwidth: Int
    public var codecs: String
    public var resolution: String
    public var frameRate: Double
    public var videoFrames: Int
    public var segments: [Segment]

    enum CodingKeys: String, CodingKey {
      case name, playlist, bandwidth, codecs, resolution, segments
      case averageBandwidth = "average_bandwidth"
      case frameRate = "frame_rate"
      case videoFrames = "video_frames"
    }

    public init(
      name: String, playlist: String, bandwidth: Int, averageBandwidth: Int, codecs: String, resolution: String,
      frameRate: Double, videoFrames: Int, segments: [Segment]
    ) {
      self.name = name
      self.playlist = playlist
      self.bandwidth = bandwidth
      self.averageBandwidth = averageBandwidth
      self.codecs = codecs
      self.resolution = resolution
      self.frameRate = frameRate
      self.videoFrames = videoFrames
      self.segments = segments
    }
  }

  /// A WebVTT track: never encrypted, so its segments carry no IV or key.
  public struct Subtitles: Sendable, Codable, Equatable {
    public var name: String
    public var language: String
    public var playlist: String
    public var segments: [Segment]

    public init(name: String, language: String, playlist: String, segments: [Segment]) {
      self.name = name
      self.language = language
      self.playlist = playlist
      self.segments = segments
    }
  }

  public struct Timings: Sendable, Codable, Equatable {
    public var sourceSeconds: Double
    public var wallSeconds: Double
    public var speed: Double

    enum CodingKeys: String, CodingKey {
      case sourceSeconds = "source_seconds"
      case wallSeconds = "wall_seconds"
      case speed
    }

    public init(sourceSeconds: Double, wallSeconds: Double, speed: Double) {
      self.sourceSeconds = sourceSeconds
      self.wallSeconds = wallSeconds
      self.speed = speed
    }
  }

  public var tool: Tool
  public var input: String
  public var asset: String
  public var container: String
  public var encryption: String
  public var ivMode: String?
  public var targetDuration: Int64
  public var keys: [Key]
  public var renditions: [Rendition]
  /// Absent when the asset has no subtitle tracks.
  public var subtitles: [Subtitles]?
  public var timings: Timings?

  enum CodingKeys: String, CodingKey {
    case tool, input, asset, container, encryption, keys, renditions, subtitles, timings
    case ivMode = "iv_mode"
    case targetDuration = "target_duration"
  }

  public init(
    version: String, input: String, asset: String, container: String, encryption: String, ivMode: String?,
    targetDuration: Int64, keys: [Key], renditions: [Rendition], subtitles: [Subtitles]? = nil, timings: Timings?
  ) {
    self.tool = Tool(version: version)
    self.input = input
    self.asset = asset
    self.container = container
    self.encryption = encryption
    self.ivMode = ivMode
    self.targetDuration = targetDuration
    self.keys = keys
    self.renditions = renditions
    self.subtitles = subtitles
    self.timings = timings
  }
}
