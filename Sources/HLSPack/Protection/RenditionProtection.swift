import HLSPackCore

/// One rendition's protection at work: the `SegmentProtection` decided for it,
/// with the segment keying and the encryptor that carry it out. The rendition
/// writer holds it; the muxer is handed its sample encryptor explicitly.
enum RenditionProtection {
  case clear
  /// The segment file writer encrypts each segment whole with its key and IV.
  case aes128Segments(SegmentKeying)
  /// The muxer encrypts samples and rewrites the PMT before the bytes arrive.
  case sampleAESTransportStream(SegmentKeying, SampleAESStreamEncryptor)
  /// The rendition writer protects the init segment and each fragment.
  case cbcs(SegmentKeying, CBCSRenditionProtection)

  /// `keys`: the asset's keys, nil exactly when `protection` is clear.
  init(
    _ protection: SegmentProtection, rendition: String, asset: String, encryption: EncryptionSettings, keys: KeyRing?
  ) throws {
    func keying() throws -> SegmentKeying {
      guard let keys else { throw PackError.crypto("\(rendition): segments to encrypt (\(protection)) but no keys") }
      return SegmentKeying(rendition: rendition, asset: asset, encryption: encryption, keys: keys)
    }
    switch protection {
    case .clear:
      self = .clear
    case .aes128Segments:
      self = .aes128Segments(try keying())
    case .sampleAESTransportStream:
      let keying = try keying()
      self = .sampleAESTransportStream(keying, SampleAESStreamEncryptor(keying: keying))
    case .cbcs:
      let keying = try keying()
      self = .cbcs(keying, CBCSRenditionProtection(keying: keying))
    }
  }

  var keying: SegmentKeying? {
    switch self {
    case .clear: nil
    case .aes128Segments(let keying), .sampleAESTransportStream(let keying, _), .cbcs(let keying, _): keying
    }
  }

  /// What the muxer runs on each sample before muxing it.
  var sampleEncryptor: SampleEncryptor? {
    guard case .sampleAESTransportStream(_, let encryptor) = self else { return nil }
    return encryptor
  }
}
