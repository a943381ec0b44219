import HLSPackCore
import HLSPackCrypto

/// SAMPLE-AES for one MPEG-TS rendition: encrypts H.264 access units and AAC
/// frames with their segment's key and IV (Apple's MPEG-2 stream encryption
/// format) and rewrites the PMT of encrypted segments to announce it. It is
/// the muxer's sample encryptor: the samples are encrypted before the bytes
/// reach the rendition writer.
final class SampleAESTransportStreamProtector: SegmentProtector, SampleEncryptor {
  let keying: SegmentKeying
  private var video: [String: H264SampleEncryptor] = [:]
  private var audio: [String: AACSampleEncryptor] = [:]
  private var ac3: [String: AC3SampleEncryptor] = [:]
  /// AC-3's setup data is the start of a syncframe, taken from the first clear frame.
  private var ac3Header: [UInt8]?
  private var rewriter: TransportStreamPMTRewriter?
  /// Encrypted segments whose packets the muxer adjusted; every one must arrive this way.
  private var adjusted: Set<Int> = []

  init(keying: SegmentKeying) {
    self.keying = keying
  }

  var sampleEncryptor: SampleEncryptor? { self }

  func finishSegment(_ index: Int, material: SegmentKeying.Material?) throws -> Bool {
    // Encrypted by the muxer: a segment that skipped it must never be published.
    if material != nil, !adjusted.contains(index) {
      throw ProtectionRefusal("the segment reached the writer without SAMPLE-AES encryption")
    }
    // The PMT's stream types change after a clear lead (docs/conformance.md, SAMPLE-AES in MPEG-TS).
    return index > 0 && index == keying.encryption.clearLeadSegments
  }

  func encrypt(_ payload: [UInt8], kind: SampleKind, segment: Int) throws -> [UInt8]? {
    guard let material = try keying.material(for: segment) else { return nil }
    let id = material.key.content.idHex
    switch kind {
    case .h264:
      let cipher = try video[id] ?? H264SampleEncryptor(key: material.key.content.bytes)
      video[id] = cipher
      return try cipher.encrypt(accessUnit: payload, iv: material.iv)
    case .aac:
      let cipher = try audio[id] ?? AACSampleEncryptor(key: material.key.content.bytes)
      audio[id] = cipher
      return try cipher.encrypt(rawFrame: payload, iv: material.iv)
    case .ac3:
      if ac3Header == nil { ac3Header = Array(payload.prefix(10)) }
      let cipher = try ac3[id] ?? AC3SampleEncryptor(key: material.key.content.bytes)
      ac3[id] = cipher
      return try cipher.encrypt(syncFrames: payload, iv: material.iv)
    }
  }

  func signalEncryption(_ packets: inout [UInt8], segment index: Int, audioPID: UInt16?, audioConfig: [UInt8]) throws {
    guard try keying.material(for: index) != nil else { return }
    if rewriter == nil {
      var setup: [UInt16: SampleAESAudioSetup] = [:]
      if let audioPID {
        setup[audioPID] =
          try ac3Header.map { try SampleAESAudioSetup.ac3(syncFrame: $0) }
          ?? SampleAESAudioSetup.aac(audioSpecificConfig: audioConfig)
      }
      // After a clear lead the PMT changes, so its version must too (ISO/IEC 13818-1 §2.4.4.9).
      let version: UInt8 = keying.encryption.clearLeadSegments > 0 ? 1 : 0
      rewriter = TransportStreamPMTRewriter(signalling: SampleAESSignalling(version: version, audioSetup: setup))
    }
    try rewriter?.rewrite(&packets)
    adjusted.insert(index)
  }
}
