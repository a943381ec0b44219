import HLSPackCore
import HLSPackVerify

/// The SAMPLE-AES decryption verify uses: the inverse of `H264SampleEncryptor`
/// and of `AudioFrameCipher`'s encryption, from the same code.
public final class SampleAESDecryptor: SampleAESDecrypting {
  private let video: H264SampleDecryptor
  private let audio: AudioFrameCipher

  public init(key: [UInt8]) throws {
    video = try H264SampleDecryptor(key: key)
    audio = try AudioFrameCipher(key: key, encrypt: false)
  }

  public func decrypt(_ payload: inout [UInt8], kind: SampleKind, iv: [UInt8]) throws {
    switch kind {
    case .h264: payload = try video.decrypt(accessUnit: payload, iv: iv)
    case .aac: try payload.withUnsafeMutableBufferPointer { try audio.process($0, framing: .adts, iv: iv) }
    case .ac3: try payload.withUnsafeMutableBufferPointer { try audio.process($0, framing: .ac3, iv: iv) }
    }
  }
}
