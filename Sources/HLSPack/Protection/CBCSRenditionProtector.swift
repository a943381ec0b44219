import HLSPackCore
import HLSPackCrypto

/// SAMPLE-AES in fMP4, i.e. CENC `cbcs`, for one rendition: the init segment
/// gets `encv`/`enca` sample entries whose `tenc` carries the key id and the
/// constant IV, and every fragment's samples are encrypted in place with
/// `senc`/`saiz`/`saio` added. The constant IV is SegmentKeying's one IV per
/// key, so the playlist's `IV=` (absent with FairPlay) equals it (docs/conformance.md, SAMPLE-AES in fMP4).
///
/// One key for the whole rendition: `tenc` lives in the init segment, so key
/// rotation would need a new init per period and a clear lead a second,
/// clear sample description (docs/conformance.md, SAMPLE-AES in fMP4); the profile loader refuses both for now.
final class CBCSRenditionProtector: SegmentProtector {
  let keying: SegmentKeying
  private var encryptor: CBCSFragmentEncryptor?
  private var keyID: [UInt8] = []
  private var constantIV: [UInt8] = []

  init(keying: SegmentKeying) {
    self.keying = keying
  }

  var protectsFragments: Bool { true }

  /// Protects the init segment with the key of the first segment it serves
  /// (a joined asset's encrypted part has an init segment of its own).
  func protectInitialization(_ bytes: [UInt8], firstSegment: Int) throws -> [UInt8] {
    guard let material = try keying.material(for: firstSegment) else {
      throw PackError.crypto("cbcs in fMP4 cannot start with clear segments (clear_lead_segments)")
    }
    keyID = material.key.content.id
    constantIV = material.iv
    let cipher = try CBCSCipher(key: material.key.content.bytes)
    encryptor = try CBCSFragmentEncryptor(initSegment: bytes, cipher: ChainCipher(cipher, constantIV: material.iv))
    return try CBCSInitProtector(keyID: keyID, constantIV: constantIV).protect(bytes)
  }

  /// Protects segment `index`, which must use the init segment's key and IV.
  func protectFragment(_ segment: [UInt8], index: Int) throws -> [UInt8] {
    guard let encryptor else { throw PackError.crypto("a cbcs segment came before its init segment") }
    guard let material = try keying.material(for: index) else {
      throw PackError.crypto("cbcs in fMP4 cannot mix clear segments into a protected rendition")
    }
    guard material.key.content.id == keyID, material.iv == constantIV else {
      throw PackError.crypto(
        "segment \(index) uses another key or IV than the init segment's tenc; cbcs key rotation needs a new init segment"
      )
    }
    return try encryptor.encrypt(segment)
  }
}

/// Lets Core's fragment encryptor drive HLSPackCrypto's OpenSSL cipher, every
/// chain from the constant IV.
private final class ChainCipher: CBCSChainCipher {
  private let cipher: CBCSCipher
  private let constantIV: [UInt8]

  init(_ cipher: CBCSCipher, constantIV: [UInt8]) {
    self.cipher = cipher
    self.constantIV = constantIV
  }

  func encryptChain(_ bytes: inout [UInt8], runs: [Range<Int>]) throws {
    try cipher.processChain(&bytes, runs: runs, iv: constantIV)
  }
}
