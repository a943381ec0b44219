import HLSPackCore
import HLSPackCrypto
import HLSPackMedia

/// Decrypts the SAMPLE-AES payloads of one segment for `TransportStreamInspector`
/// (Apple MPEG-2 Stream Encryption Format for HTTP Live Streaming §2.2–2.3),
/// undoing `H264SampleEncryptor` and `AudioFrameCipher`, and decodes what the
/// inspector asks to decode.
final class SampleAESPayloadChecker: SamplePayloadChecking {
  private let video: H264SampleDecryptor
  private let audio: AudioFrameCipher
  private let iv: [UInt8]

  init(key: [UInt8], iv: [UInt8]) throws {
    video = try H264SampleDecryptor(key: key)
    audio = try AudioFrameCipher(key: key, encrypt: false)
    self.iv = iv
  }

  func decryptSampleAES(_ payload: inout [UInt8], kind: SampleKind) throws {
    switch kind {
    case .h264: payload = try video.decrypt(accessUnit: payload, iv: iv)
    case .aac: try payload.withUnsafeMutableBufferPointer { try audio.process($0, framing: .adts, iv: iv) }
    case .ac3: try payload.withUnsafeMutableBufferPointer { try audio.process($0, framing: .ac3, iv: iv) }
    }
  }

  func decodeProblem(_ accessUnit: [UInt8], kind: SampleKind) -> String? {
    StandaloneDecodeCheck.problem(accessUnit, codec: kind == .h264 ? .h264 : .aacADTS)
  }
}
