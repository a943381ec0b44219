import HLSPackCore

/// One rendition's protection stage: the work a `SegmentProtection` decision
/// asks for, one type per scheme, each implementing only the hooks its scheme
/// needs (the defaults leave bytes as they are). A clear rendition has none.
///
/// The rendition writer calls the hooks in order: `protectInitialization`
/// for the fMP4 init segment, `protectFragment` with each complete segment
/// when `protectsFragments`, then `finishSegment`.
protocol SegmentProtector: AnyObject {
  /// Each segment's key, IV and key tag, shared with the playlist.
  var keying: SegmentKeying { get }
  /// What the muxer runs on each sample before muxing it.
  var sampleEncryptor: SampleEncryptor? { get }
  /// The segment file writer encrypts each segment whole with its key and IV.
  var encryptsWholeSegments: Bool { get }
  /// Each segment's bytes are held until it is complete and then go through `protectFragment`.
  var protectsFragments: Bool { get }
  /// The init segment as it is written, for the segments from `firstSegment` on.
  func protectInitialization(_ bytes: [UInt8], firstSegment: Int) throws -> [UInt8]
  /// Segment `index` (a whole fragment) as it is written.
  func protectFragment(_ bytes: [UInt8], index: Int) throws -> [UInt8]
  /// Called when segment `index` is complete, with its keying: why it must not
  /// be published (thrown), or whether an EXT-X-DISCONTINUITY precedes it.
  func finishSegment(_ index: Int, material: SegmentKeying.Material?) throws -> Bool
}

extension SegmentProtector {
  var sampleEncryptor: SampleEncryptor? { nil }
  var encryptsWholeSegments: Bool { false }
  var protectsFragments: Bool { false }
  func protectInitialization(_ bytes: [UInt8], firstSegment: Int) throws -> [UInt8] { bytes }
  func protectFragment(_ bytes: [UInt8], index: Int) throws -> [UInt8] { bytes }
  func finishSegment(_ index: Int, material: SegmentKeying.Material?) throws -> Bool { false }
}

extension SegmentProtection {
  /// The stage that carries this decision out for `rendition`; nil when clear.
  /// `keys`: the asset's keys, nil exactly when the decision is clear.
  func protector(
    rendition: String, asset: String, encryption: EncryptionSettings, keys: KeyRing?
  ) throws -> SegmentProtector? {
    guard encrypts else { return nil }
    guard let keys else { throw PackError.crypto("\(rendition): segments to encrypt (\(self)) but no keys") }
    let keying = SegmentKeying(
      rendition: rendition, asset: asset, protection: self, encryption: encryption, keys: keys)
    switch self {
    case .clear: return nil
    case .aes128Segments: return AES128SegmentProtector(keying: keying)
    case .sampleAESTransportStream: return SampleAESTransportStreamProtector(keying: keying)
    case .cbcs: return CBCSRenditionProtector(keying: keying)
    }
  }
}

/// Why a protector refused a segment; the rendition writer names the file.
struct ProtectionRefusal: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) {
    self.description = description
  }
}
