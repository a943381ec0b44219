import HLSPackCore

/// One elementary stream of a transport stream segment, as the inspector
/// follows it. A class, so that appending to its payload never copies it.
final class ElementaryStream {
  enum Kind {
    case h264, hevc, aac, ac3, eac3

    /// Clear stream types and their SAMPLE-AES forms (Apple MPEG-2 Stream
    /// Encryption Format for HTTP Live Streaming §3; ATSC A/52 Annex A for
    /// 0x81 AC-3 and 0x87 E-AC-3).
    init?(streamType: UInt8) {
      switch streamType {
      case 0x1B, 0xDB: self = .h264
      case 0x24: self = .hevc
      case 0x0F, 0xCF: self = .aac
      case 0x81, 0xC1: self = .ac3
      case 0x87, 0xC2: self = .eac3
      default: return nil
      }
    }

    /// Audio whose codec this inspector does not read: MPEG-1/2 audio and LATM
    /// AAC (ISO/IEC 13818-1 Table 2-34), and private data, which may be audio.
    static func isUnreadAudio(streamType: UInt8) -> Bool { [0x03, 0x04, 0x06, 0x11, 0x1C].contains(streamType) }

    var isVideo: Bool { self == .h264 || self == .hevc }
    var sampleKind: SampleKind {
      switch self {
      case .h264, .hevc: .h264
      case .aac: .aac
      case .ac3, .eac3: .ac3
      }
    }
    var name: String {
      switch self {
      case .h264: "H.264"
      case .hevc: "HEVC"
      case .aac: "AAC"
      case .ac3: "AC-3"
      case .eac3: "E-AC-3"
      }
    }
  }

  let kind: Kind
  let encrypted: Bool
  var payload: [UInt8] = []
  var collecting = false
  var pts: Int64?
  /// PES packets started in this segment.
  var units = 0

  init(kind: Kind, encrypted: Bool) {
    self.kind = kind
    self.encrypted = encrypted
  }
}

extension TransportStreamInspector {
  /// Keyframe, codec string and picture from the segment's first access unit.
  mutating func readFirstAccessUnit(_ stream: ElementaryStream) {
    let hevc = stream.kind == .hevc
    let bytes = stream.payload
    facts.startsWithKeyframe =
      RandomAccess.opening(nalTypes: RandomAccess.nalTypes(bytes, lengthSize: nil, hevc: hevc), hevc: hevc)
      != .dependent
    facts.videoCodec = hevc ? CodecString.hvc1(annexB: bytes) : CodecString.avc1(annexB: bytes)
    facts.picture = SPSPicture.firstSPS(in: AnnexB.nalUnits(in: bytes), hevc: hevc)
    // Decoding one picture per encrypted segment is the check of its key:
    // SAMPLE-AES leaves the first 32 bytes of every slice clear, so the slice
    // header parses whatever the key, and only the decoder, reading the
    // encrypted slice data, fails with a wrong one.
    if stream.encrypted, let checker, sampleAESProblem == nil,
      let problem = checker.decodeProblem(bytes, kind: .h264)
    {
      sampleAESProblem = "the first H.264 access unit does not decode after decryption (wrong key?): \(problem)"
    }
  }

  /// Counts the audio frames of one PES packet for the segment's end time,
  /// notes the codec, and checks decrypted frames.
  mutating func readAudio(_ stream: ElementaryStream) {
    var frames = 0
    var sampleRate = 0
    var samples = 0
    var codecs: [String] = []
    var badCRC: Int?
    var probeEnd: Int?
    do {
      try stream.payload.withUnsafeBufferPointer { buffer in
        if stream.kind != .aac {
          try DolbySyncFrames.forEach(in: buffer) { frame in
            frames += 1
            sampleRate = frame.sampleRate
            samples += frame.samples
            if !codecs.contains(frame.codec) { codecs.append(frame.codec) }
            if stream.encrypted, !frame.enhanced, badCRC == nil, !AC3FrameCheck.crcIsZero(stream.payload[frame.range]) {
              badCRC = frames
            }
          }
        } else {
          try ADTSFrames.forEach(in: buffer) { frame, _ in
            frames += 1
            let header = frame.lowerBound
            sampleRate = Self.adtsRates[min(Int(buffer[header + 2] >> 2 & 0x0F), Self.adtsRates.count - 1)]
            samples += 1024
            let codec = "mp4a.40.\(Int(buffer[header + 2] >> 6) + 1)"
            if !codecs.contains(codec) { codecs.append(codec) }
            if frames <= AACProbe.units { probeEnd = frame.upperBound }
          }
        }
      }
    } catch {
      if stream.encrypted { sampleAESProblem = sampleAESProblem ?? "\(stream.kind.name) PES \(stream.units): \(error)" }
      return
    }
    if let badCRC, stream.encrypted {
      sampleAESProblem =
        sampleAESProblem
        ?? "AC-3 syncframe \(badCRC) of PES \(stream.units) fails its CRC after decryption (wrong key?)"
    }
    // ADTS carries no CRC as a rule, so an encrypted AAC-only segment is
    // checked by decoding its first PES packet's frames.
    if stream.kind == .aac, stream.encrypted, stream.units == 1, !streams.values.contains(where: \.kind.isVideo),
      let checker, sampleAESProblem == nil, let problem = checker.decodeProblem(stream.payload, kind: .aac)
    {
      sampleAESProblem = "the first AAC frames do not decode after decryption (wrong key?): \(problem)"
    }
    for codec in codecs where !facts.audioCodecs.contains(codec) { facts.audioCodecs.append(codec) }
    // Frames a decoder can read: clear, or decrypted with the key.
    if let probeEnd, facts.aacProbe == nil, !stream.encrypted || checker != nil, sampleAESProblem == nil {
      facts.aacProbe = AACProbe(config: nil, units: [Array(stream.payload[..<probeEnd])])
    }
    guard let pts = stream.pts, sampleRate > 0, frames > 0 else { return }
    audioFrameDuration = Int64(samples / frames) * 90_000 / Int64(sampleRate)
    let end = pts + Int64(samples) * 90_000 / Int64(sampleRate)
    audio = (first: min(audio?.first ?? pts, pts), end: max(audio?.end ?? end, end))
  }

  /// sampling_frequency_index (ISO/IEC 14496-3 Table 1.18); 0 for reserved.
  static let adtsRates = [
    96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000, 7_350, 0,
  ]
}
