import HLSPackCore
import HLSPackCrypto
import HLSPackMedia

/// Decrypts the SAMPLE-AES payloads of one segment for `TransportStreamInspector`
/// (Apple MPEG-2 Stream Encryption Format for HTTP Live Streaming §2.2–2.3),
/// undoing `H264SampleEncryptor` and `AudioFrameCipher`, and decodes what the
/// inspector asks to decode.
final class SampleAESPayloadChecker: SamplePayloadChecking {
  private let video: SampleAESCipher
  private let audio: AudioFrameCipher
  private let iv: [UInt8]

  init(key: [UInt8], iv: [UInt8]) throws {
    video = try SampleAESCipher(key: key, encrypt: false)
    audio = try AudioFrameCipher(key: key, encrypt: false)
    self.iv = iv
  }

  func decryptSampleAES(_ payload: inout [UInt8], kind: SampleKind) throws {
    switch kind {
    case .h264: payload = try decryptVideo(payload)
    case .aac: try payload.withUnsafeMutableBufferPointer { try audio.process($0, framing: .adts, iv: iv) }
    case .ac3: try payload.withUnsafeMutableBufferPointer { try audio.process($0, framing: .ac3, iv: iv) }
    }
  }

  func decodeProblem(_ accessUnit: [UInt8], kind: SampleKind) -> String? {
    StandaloneDecodeCheck.problem(accessUnit, codec: kind == .h264 ? .h264 : .aacADTS)
  }

  /// In each slice NAL unit (types 1 and 5) of more than 48 bytes as it
  /// stands, strips the one layer of emulation prevention the encryptor added,
  /// then decrypts the blocks at the offsets of the stripped length, one CBC
  /// chain per NAL unit from the IV (§2.2.2). Other NAL units stay as they are.
  private func decryptVideo(_ accessUnit: [UInt8]) throws -> [UInt8] {
    try accessUnit.withUnsafeBufferPointer { input in
      try SampleAESCipher.withIV(iv) { iv in
        var out: [UInt8] = []
        out.reserveCapacity(input.count)
        var scanner = try AnnexB.Scanner(accessUnit: input)
        var copied = 0
        while let nal = scanner.next() {
          guard nal.count >= SampleAESLayout.minimumEncryptedNALLength,
            SampleAESLayout.isEncryptedVideoType(input[nal.lowerBound])
          else { continue }
          out.append(contentsOf: UnsafeBufferPointer(rebasing: input[copied..<nal.lowerBound]))
          let start = out.count
          AnnexB.appendUnescaped(UnsafeBufferPointer(rebasing: input[nal]), to: &out)
          let offsets = SampleAESLayout.videoBlocks(nalLength: out.count - start)
          try video.restart(iv: iv)
          try out.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for offset in offsets { try video.crypt(base + start + offset, count: 16) }
          }
          copied = nal.upperBound
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: input[copied...]))
        return out
      }
    }
  }
}
