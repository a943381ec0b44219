import HLSPackCore

/// What the clear (or decrypted) bytes of one media segment say, for the
/// bitstream rules: only what those rules need, read from the first access
/// unit's NAL units, the first SPS, and the PES headers or `tfdt` timestamps.
public struct SegmentMediaFacts: Sendable, Equatable {
  /// The RFC 6381 codec string of the video, from the first SPS, and of the audio.
  public var videoCodec: String?
  public var audioCodecs: [String] = []
  public var picture: SPSPicture?
  /// fMP4: the video sample entry's Dolby Vision configuration, and whether
  /// the segment's first video sample carries an RPU (HEVC NAL type 62).
  public var dolbyVision: DolbyVisionConfiguration?
  public var firstSampleHasRPU: Bool?
  /// An AV1 track's sequence header: the first sample's, else its av1C's.
  public var av1SequenceHeader: AV1SequenceHeader?
  /// The AAC audio's SBR and PS tools, as its config signals them or a
  /// decoder found them in `aacProbe`; nil when not known.
  public var aacTools: AACTools?
  public var aacProbe: AACProbe?
  /// An audio stream whose codec is not read (MP3 or LATM in MPEG-TS, Opus
  /// or FLAC in fMP4): the CODECS audio entries are then not judged.
  public var audioUnidentified = false
  /// nil when the segment has no video.
  public var startsWithKeyframe: Bool?
  /// Video PES packets begun in the bytes (MPEG-TS): one per access unit.
  public var videoAccessUnits = 0
  /// First frame's presentation time, and the end of the last frame, in
  /// `timescale` units: of the video when there is video, else of the audio.
  public var firstPTS: Int64?
  public var endPTS: Int64?
  public var timescale: Int64 = 90_000
  /// MPEG-TS timestamps count modulo 2^33 (ISO/IEC 13818-1 §2.4.3.7); nil
  /// for `tfdt`, which does not wrap in practice (64 bits in version 1).
  public var timestampModulus: Int64?
  public static let transportStreamTimestampModulus: Int64 = 1 << 33
  /// One frame's duration in `timescale` units, when it could be measured.
  public var frameDuration: Int64?
  public var problems: [SegmentProblem] = []

  public init() {}

  public var firstSeconds: Double? { firstPTS.map { Double($0) / Double(timescale) } }
  public var durationSeconds: Double? {
    guard let firstPTS, let endPTS else { return nil }
    return Double(endPTS - firstPTS) / Double(timescale)
  }

  /// How far `start` lies after `end`, across a wrap of the timestamps.
  public func distance(from end: Int64, to start: Int64) -> Int64 {
    let difference = start - end
    guard let modulus = timestampModulus else { return difference }
    let reduced = (difference % modulus + modulus) % modulus
    return reduced > modulus / 2 ? reduced - modulus : reduced
  }
}

/// A rule that failed inside one segment, and what was found.
public struct SegmentProblem: Sendable, Equatable {
  public var rule: VerifyRule
  public var detail: String

  public init(_ rule: VerifyRule, _ detail: String) {
    self.rule = rule
    self.detail = detail
  }
}

/// The work an inspector hands to a module that has the ciphers and decoders
/// (HLSPack, through HLSPackCrypto and FFmpeg).
public protocol SamplePayloadChecking {
  /// Decrypts one SAMPLE-AES PES payload in place (Apple MPEG-2 Stream
  /// Encryption Format for HTTP Live Streaming §2.2–2.3); throws when its
  /// framing cannot be read.
  func decryptSampleAES(_ payload: inout [UInt8], kind: SampleKind) throws
  /// Why one clear access unit (Annex B H.264, or ADTS frames) does not
  /// decode; nil when it does.
  func decodeProblem(_ accessUnit: [UInt8], kind: SampleKind) -> String?
}

/// AC-3 syncframes carry CRC-16 words (ATSC A/52 §5.4.1.2 crc1, §5.8 crc2)
/// that make the CRC of every frame after its syncword zero. A SAMPLE-AES
/// frame decrypted with the wrong key fails it with probability 1 − 2⁻¹⁶.
public enum AC3FrameCheck {
  /// CRC-16 with polynomial x¹⁶ + x¹⁵ + x² + 1, MSB first, initial value 0.
  public static func crcIsZero(_ frame: ArraySlice<UInt8>) -> Bool {
    var crc: UInt16 = 0
    for byte in frame.dropFirst(2) { crc = crc << 8 ^ table[Int(UInt8(crc >> 8) ^ byte)] }
    return crc == 0
  }

  private static let table: [UInt16] = (0..<256).map { index in
    var crc = UInt16(index) << 8
    for _ in 0..<8 { crc = crc & 0x8000 != 0 ? crc << 1 ^ 0x8005 : crc << 1 }
    return crc
  }
}
