/// Turns a clear PMT into the PMT of a SAMPLE-AES transport stream
/// (Apple MPEG-2 Stream Encryption §3): encrypted stream types, a private_data_indicator
/// descriptor per encrypted stream, the `apad` audio setup descriptor per
/// encrypted audio stream, a chosen version_number and a new CRC_32.
///
/// With a clear lead, keep the muxer's clear PMT (version 0) for the clear
/// segments and use version 1 here for the encrypted ones (ISO/IEC 13818-1 §2.4.4.9).
public struct SampleAESSignalling: Equatable, Sendable {
  /// version_number of the encrypted PMT, 0–31.
  public var version: UInt8
  /// Audio setup information for each encrypted audio stream, by elementary PID.
  public var audioSetup: [UInt16: SampleAESAudioSetup]

  public init(version: UInt8 = 0, audioSetup: [UInt16: SampleAESAudioSetup] = [:]) {
    self.version = version
    self.audioSetup = audioSetup
  }

  private struct Mapping {
    var encryptedType: UInt8
    var privateData: String
    var isAudio: Bool
  }

  /// Clear stream_type → its SAMPLE-AES form (SENC §3; Shaka ts_stream_type.h).
  private static let mappings: [UInt8: Mapping] = [
    0x1B: Mapping(encryptedType: 0xDB, privateData: "zavc", isAudio: false),  // H.264
    0x0F: Mapping(encryptedType: 0xCF, privateData: "aacd", isAudio: true),  // ADTS AAC
    0x81: Mapping(encryptedType: 0xC1, privateData: "ac3d", isAudio: true),  // AC-3
    0x87: Mapping(encryptedType: 0xC2, privateData: "ec3d", isAudio: true),  // E-AC-3
  ]

  /// Audio and video types that would otherwise stay clear without a word:
  /// MPEG-1/2 video and audio, MPEG-4 visual, LATM AAC, HEVC.
  private static let unsupported: Set<UInt8> = [0x01, 0x02, 0x03, 0x04, 0x10, 0x11, 0x24]

  private static let privateDataIndicatorTag: UInt8 = 0x0F
  private static let registrationTag: UInt8 = 0x05

  /// The SAMPLE-AES form of `clear`. Streams of other types (metadata, or
  /// already-encrypted types) are kept as they are. For converted streams, an
  /// existing private_data_indicator (and, for audio, registration) descriptor
  /// is replaced, because a stream can declare only one; other descriptors
  /// (language, …) follow the new ones unchanged.
  public func encrypted(_ clear: PMTSection) throws -> PMTSection {
    guard version <= 31 else { throw TransportStreamError.invalidField("version_number \(version) is over 31") }
    var pmt = clear
    pmt.version = version
    for index in pmt.streams.indices {
      let stream = pmt.streams[index]
      if Self.unsupported.contains(stream.streamType) {
        throw TransportStreamError.unsupportedStreamType(pid: stream.pid, streamType: stream.streamType)
      }
      guard let mapping = Self.mappings[stream.streamType] else { continue }
      var added = [PMTSection.Descriptor(tag: Self.privateDataIndicatorTag, data: Array(mapping.privateData.utf8))]
      var replaced: Set<UInt8> = [Self.privateDataIndicatorTag]
      if mapping.isAudio {
        guard let setup = audioSetup[stream.pid] else {
          throw TransportStreamError.missingAudioSetup(pid: stream.pid, streamType: stream.streamType)
        }
        guard setup.clearStreamType == stream.streamType else {
          throw TransportStreamError.audioSetupMismatch(
            pid: stream.pid, streamType: stream.streamType, audioType: setup.audioType.rawValue)
        }
        added.append(PMTSection.Descriptor(tag: Self.registrationTag, data: Array("apad".utf8) + (try setup.encoded())))
        replaced.insert(Self.registrationTag)
      }
      pmt.streams[index].streamType = mapping.encryptedType
      pmt.streams[index].descriptors = added + stream.descriptors.filter { !replaced.contains($0.tag) }
    }
    return pmt
  }

  /// The same on section bytes (table_id through CRC_32, which must verify).
  public func encryptedSection(_ clearSection: some Collection<UInt8>) throws -> [UInt8] {
    try encrypted(PMTSection(parsing: clearSection)).serialized()
  }
}
