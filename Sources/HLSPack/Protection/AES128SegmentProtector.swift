import HLSPackCrypto

/// METHOD=AES-128 for one rendition, in either container: each segment file
/// is one AES-128-CBC run with PKCS#7 padding (RFC 8216bis 4.4.4.4), which
/// the segment file writer applies as the bytes are written (`SegmentCBCRun`).
/// With `encrypt_init` the fMP4 init segment is encrypted whole the same way,
/// with its own key tag (`SegmentKeying.initializationMaterial`).
final class AES128SegmentProtector: SegmentProtector {
  let keying: SegmentKeying

  init(keying: SegmentKeying) {
    self.keying = keying
  }

  var encryptsWholeSegments: Bool { true }

  func protectInitialization(_ bytes: [UInt8], firstSegment: Int) throws -> [UInt8] {
    guard let material = try keying.initializationMaterial() else { return bytes }
    return try AES128CBC().encryptPadded(bytes, key: material.key.content.bytes, iv: material.iv)
  }
}
