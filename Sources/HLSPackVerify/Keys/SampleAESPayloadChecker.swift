import HLSPackCore

import HLSPackMedia

/// Undoes SAMPLE-AES on one PES payload (Apple MPEG-2 Stream Encryption
/// Format for HTTP Live Streaming §2.2–2.3). The packager's own decryptors
/// are handed in (`PackageVerifier.sampleAES`) by whoever links both, so that
/// verify undoes exactly what the encoder did without depending on it.
public protocol SampleAESDecrypting {
  init(key: [UInt8]) throws
  func decrypt(_ payload: inout [UInt8], kind: SampleKind, iv: [UInt8]) throws
}

/// Decrypts the SAMPLE-AES payloads of one segment for `TransportStreamInspector`
/// and decodes what the inspector asks to decode.
final class SampleAESPayloadChecker: SamplePayloadChecking {
  private let decryptor: any SampleAESDecrypting
  private let iv: [UInt8]

  init(_ decryptor: any SampleAESDecrypting.Type, key: [UInt8], iv: [UInt8]) throws {
    self.decryptor = try decryptor.init(key: key)
    self.iv = iv
  }

  func decryptSampleAES(_ payload: inout [UInt8], kind: SampleKind) throws {
    try decryptor.decrypt(&payload, kind: kind, iv: iv)
  }

  func decodeProblem(_ accessUnit: [UInt8], kind: SampleKind) -> String? {
    StandaloneDecodeCheck.problem(accessUnit, codec: kind == .h264 ? .h264 : .aacADTS)
  }
}
