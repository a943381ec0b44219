/// The audio setup information that an encrypted audio stream carries in its
/// `apad` registration descriptor (Apple MPEG-2 Stream Encryption §2.3.4): audio_type, priming,
/// version, setup_data_length, setup_data. A decoder cannot read the codec
/// configuration from the encrypted frames, so it comes from here.
public struct SampleAESAudioSetup: Equatable, Sendable {
  public enum AudioType: String, Sendable {
    case aacLC = "zaac"
    case heAAC = "zach"
    case heAACv2 = "zacp"
    case ac3 = "zac3"
    case eac3 = "zec3"
  }

  public var audioType: AudioType
  /// AAC: the AudioSpecificConfig; AC-3: the first 10 bytes of a syncframe;
  /// E-AC-3: the `dec3` box payload.
  public var setupData: [UInt8]

  public init(audioType: AudioType, setupData: [UInt8]) {
    self.audioType = audioType
    self.setupData = setupData
  }

  /// From an AudioSpecificConfig; audio_type follows its audioObjectType
  /// (2 → `zaac`, 5 → `zach`, 29 → `zacp`, as Shaka Packager maps it). Use
  /// `init(audioType:setupData:)` for HE-AAC signalled implicitly as AOT 2.
  public static func aac(audioSpecificConfig asc: [UInt8]) throws -> Self {
    guard asc.count >= 2 else {
      throw TransportStreamError.invalidField("AudioSpecificConfig of \(asc.count) bytes; it has at least 2")
    }
    var objectType = Int(asc[0] >> 3)
    if objectType == 31 { objectType = 32 + (Int(asc[0] & 0x07) << 3 | Int(asc[1] >> 5)) }
    let type: AudioType
    switch objectType {
    case 2: type = .aacLC
    case 5: type = .heAAC
    case 29: type = .heAACv2
    default:
      throw TransportStreamError.invalidField(
        "AudioSpecificConfig object type \(objectType) is not AAC-LC (2), HE-AAC (5) or HE-AACv2 (29)")
    }
    return Self(audioType: type, setupData: type == .aacLC ? adtsExpressible(asc) : asc)
  }

  /// AAC-LC travels in TS as ADTS, whose headers say no more than an
  /// AudioSpecificConfig's first two bytes: object type, a sampling frequency
  /// index, a channel configuration. What some encoders append after them
  /// (FFmpeg's explicit "no SBR" extension, `56 E5 00`) is left out, so that
  /// the setup describes the frames as their headers do, as Shaka Packager
  /// writes it. Configurations ADTS cannot express (an explicit frequency, a
  /// program config element, core coder or extension flags) stay whole.
  private static func adtsExpressible(_ asc: [UInt8]) -> [UInt8] {
    let frequencyIndex = (asc[0] & 0x07) << 1 | asc[1] >> 7
    let channelConfiguration = asc[1] >> 3 & 0x0F
    guard frequencyIndex != 15, channelConfiguration != 0, asc[1] & 0x03 == 0 else { return asc }
    return Array(asc.prefix(2))
  }

  /// From the start of an AC-3 syncframe (at least its first 10 bytes).
  public static func ac3(syncFrame: [UInt8]) throws -> Self {
    guard syncFrame.count >= 10, syncFrame[0] == 0x0B, syncFrame[1] == 0x77 else {
      throw TransportStreamError.invalidField("AC-3 setup data must be the first 10 bytes of a syncframe (0B 77 …)")
    }
    return Self(audioType: .ac3, setupData: Array(syncFrame.prefix(10)))
  }

  /// From the payload of an E-AC-3 `dec3` box (EC3SpecificBox).
  public static func eac3(dec3: [UInt8]) -> Self {
    Self(audioType: .eac3, setupData: dec3)
  }

  /// The clear stream_type this setup belongs to.
  var clearStreamType: UInt8 {
    switch audioType {
    case .aacLC, .heAAC, .heAACv2: 0x0F
    case .ac3: 0x81
    case .eac3: 0x87
    }
  }

  /// The bytes after `apad` in the registration descriptor. priming is always
  /// 0: the encoder does not report it, and implementations disagree on its
  /// byte order (Shaka writes big-endian, FFmpeg reads little-endian), which 0
  /// makes moot.
  public func encoded() throws -> [UInt8] {
    // The descriptor is 4 (apad) + 8 + setup_data bytes and its length is one byte.
    guard setupData.count <= 255 - 12 else {
      throw TransportStreamError.invalidField("audio setup_data of \(setupData.count) bytes is over 243")
    }
    return Array(audioType.rawValue.utf8) + [0, 0, 1, UInt8(setupData.count)] + setupData
  }
}
