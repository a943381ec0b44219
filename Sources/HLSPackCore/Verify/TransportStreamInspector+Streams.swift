/// One elementary stream of a transport stream segment, as the inspector
/// follows it. A class, so that appending to its payload never copies it.
final class ElementaryStream {
  enum Kind {
    case h264, hevc, aac, ac3

    /// Clear stream types and their SAMPLE-AES forms (Apple MPEG-2 Stream
    /// Encryption Format for HTTP Live Streaming §3).
    init?(streamType: UInt8) {
      switch streamType {
      case 0x1B, 0xDB: self = .h264
      case 0x24: self = .hevc
      case 0x0F, 0xCF: self = .aac
      case 0x81, 0xC1: self = .ac3
      default: return nil
      }
    }

    var isVideo: Bool { self == .h264 || self == .hevc }
    var sampleKind: SampleKind {
      switch self {
      case .h264, .hevc: .h264
      case .aac: .aac
      case .ac3: .ac3
      }
    }
    var name: String {
      switch self {
      case .h264: "H.264"
      case .hevc: "HEVC"
      case .aac: "AAC"
      case .ac3: "AC-3"
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
    var codec: String?
    var badCRC: Int?
    let samplesPerFrame = stream.kind == .ac3 ? 1536 : 1024
    do {
      try stream.payload.withUnsafeBufferPointer { buffer in
        if stream.kind == .ac3 {
          try AC3SyncFrames.forEach(in: buffer) { frame in
            frames += 1
            sampleRate = [48_000, 44_100, 32_000][Int(min(buffer[frame.lowerBound + 4] >> 6, 2))]
            codec = "ac-3"
            if stream.encrypted, badCRC == nil, !AC3FrameCheck.crcIsZero(stream.payload[frame]) { badCRC = frames }
          }
        } else {
          try ADTSFrames.forEach(in: buffer) { frame, _ in
            frames += 1
            let header = frame.lowerBound
            sampleRate = Self.adtsRates[min(Int(buffer[header + 2] >> 2 & 0x0F), Self.adtsRates.count - 1)]
            codec = "mp4a.40.\(Int(buffer[header + 2] >> 6) + 1)"
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
    if let codec, !facts.audioCodecs.contains(codec) { facts.audioCodecs.append(codec) }
    guard let pts = stream.pts, sampleRate > 0 else { return }
    audioFrameDuration = Int64(samplesPerFrame) * 90_000 / Int64(sampleRate)
    let end = pts + Int64(frames * samplesPerFrame) * 90_000 / Int64(sampleRate)
    audio = (first: min(audio?.first ?? pts, pts), end: max(audio?.end ?? end, end))
  }

  /// sampling_frequency_index (ISO/IEC 14496-3 Table 1.18); 0 for reserved.
  static let adtsRates = [
    96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000, 7_350, 0,
  ]
}
