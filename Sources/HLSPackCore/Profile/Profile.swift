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
  public var audio: AudioSettings?
  public var encryption: EncryptionSettings
}

public enum Container: String, Sendable, Equatable, CaseIterable {
  case ts
}

public struct SegmentSettings: Sendable, Equatable {
  /// Target segment duration in seconds; IDR frames are forced at every multiple of it.
  public var duration: Double
  public var container: Container
}

public enum VideoCodec: String, Sendable, Equatable, CaseIterable {
  case h264
}

public struct VideoRung: Sendable, Equatable {
  public var name: String
  public var width: Int
  public var height: Int
  public var bitrate: Int
  public var maxrate: Int?
  public var bufsize: Int?
  public var codec: VideoCodec
  /// H.264 profile name as x264 knows it (`baseline`, `main`, `high`); nil = encoder default.
  public var profile: String?
  /// H.264 level as written in the profile (`"3.1"`); nil = chosen by the encoder.
  public var level: String?
  public var preset: String
  /// Output frame rate; nil keeps the source's.
  public var fps: FrameRate?
}

public enum AudioCodec: String, Sendable, Equatable, CaseIterable {
  case aac
}

public struct AudioSettings: Sendable, Equatable {
  public var codec: AudioCodec
  public var bitrate: Int
  public var channels: Int
  public var sampleRate: Int
}

public enum EncryptionMethod: String, Sendable, Equatable, CaseIterable {
  case none
  case aes128 = "aes-128"
}

public enum IVMode: String, Sendable, Equatable, CaseIterable {
  /// An explicit, unpredictable IV per segment (written as IV=0x...).
  case random
  /// No IV attribute: clients derive it from the media sequence number (RFC 8216 §5.2).
  case sequence
}

public struct EncryptionSettings: Sendable, Equatable {
  public var method: EncryptionMethod
  /// The URI written into EXT-X-KEY; nil means a relative path to the key file.
  public var keyURI: String?
  public var iv: IVMode

  public static let none = EncryptionSettings(method: .none, keyURI: nil, iv: .random)
}

/// A frame rate as an exact fraction, so frame times and IDR positions never drift.
public struct FrameRate: Sendable, Equatable, CustomStringConvertible {
  public var numerator: Int
  public var denominator: Int

  public init(numerator: Int, denominator: Int) {
    self.numerator = numerator
    self.denominator = denominator
  }

  public var value: Double { Double(numerator) / Double(denominator) }
  public var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }
}
