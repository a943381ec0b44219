import HLSPackCore

/// The key, IV and key tag of each segment of one rendition, decided once and
/// shared by whoever encrypts (the writer for AES-128, the muxer's sample
/// encryptor for SAMPLE-AES) and the playlist. Used on the rendition's thread.
final class SegmentKeying {
  struct Material {
    var key: KeyRing.Key
    /// The IV that encrypts the segment.
    var iv: [UInt8]
    var tag: KeyTag
  }

  let rendition: String
  /// The rendition's protection, never clear: the key tag's METHOD and how IVs are chosen follow it.
  let protection: SegmentProtection
  /// Keys, IVs and URIs as the profile asks for them.
  let encryption: EncryptionSettings
  private let asset: String
  private let keys: KeyRing
  private var decided: [Int: Material] = [:]
  private var initialization: Material?
  /// The first segment of every part of a joined asset, with whether the
  /// part is clear; a plain asset has none.
  private var parts: [(firstSegment: Int, clear: Bool)] = []

  init(rendition: String, asset: String, protection: SegmentProtection, encryption: EncryptionSettings, keys: KeyRing) {
    self.rendition = rendition
    self.protection = protection
    self.asset = asset
    self.encryption = encryption
    self.keys = keys
  }

  func period(of index: Int) -> Int {
    encryption.rotateEvery.map { (index - encryption.clearLeadSegments) / $0 } ?? 0
  }

  /// Segments from `firstSegment` on belong to a part that is clear or follows the profile.
  func beginPart(at firstSegment: Int, clear: Bool) {
    parts.append((firstSegment, clear))
  }

  /// Whether segment `index` belongs to a part of a joined asset that stays clear.
  func isInClearPart(_ index: Int) -> Bool {
    parts.last(where: { $0.firstSegment <= index })?.clear == true
  }

  /// Nil for a clear segment (within the clear lead, or of a clear part).
  func material(for index: Int) throws -> Material? {
    guard index >= encryption.clearLeadSegments else { return nil }
    if isInClearPart(index) { return nil }
    if let known = decided[index] { return known }
    let period = self.period(of: index)
    let key = try keys.key(rendition: rendition, period: period)
    let iv: [UInt8]
    var written: [UInt8]?
    if encryption.fairPlay {
      // FairPlay delivers the IV with the key: one IV per key (the profile's
      // when it fixes one), never in the playlist. Sequence IVs are refused at load.
      if case .fixed(let fixed) = encryption.iv { iv = fixed } else { iv = try keys.keyIV(key) }
    } else if protection.method == .sampleAES, encryption.iv == .random {
      // SAMPLE-AES restarts CBC from the IV at every NAL unit and audio frame,
      // so a per-segment IV adds nothing; one IV per key also keeps players
      // that decrypt a segment's last access unit with the next segment's IV
      // (FFmpeg's demuxer) correct.
      iv = try keys.keyIV(key)
      written = iv
    } else {
      switch encryption.iv {
      case .random:
        iv = try keys.randomIV(rendition: rendition, index: index)
        written = iv
      case .sequence: iv = SegmentIV.sequence(UInt64(index))
      case .fixed(let fixed):
        iv = fixed
        written = fixed
      }
    }
    let values = KeyURITemplate.Values(
      asset: asset, rendition: rendition, keyID: key.content.idHex, period: period,
      keyFile: String(repeating: "../", count: rendition.split(separator: "/").count) + key.file)
    let tag = KeyTag(
      method: protection.method == .sampleAES ? .sampleAES : .aes128, uri: encryption.keyURI.render(values),
      iv: written,
      keyFormat: encryption.keyFormat, keyFormatVersions: encryption.keyFormatVersions)
    let material = Material(key: key, iv: iv, tag: tag)
    decided[index] = material
    return material
  }

  /// The key, IV and key tag of the encrypted initialization section
  /// (`encrypt_init`); nil when it stays clear. Its key tag stands before the
  /// EXT-X-MAP, so the key is the one the first encrypted segment starts with
  /// (with rotation a player that starts in a later period fetches that key
  /// too), and it always has an explicit IV: an initialization section has no
  /// media sequence number to derive one from (RFC 8216bis §4.4.4.4, §4.4.4.5).
  /// A fixed IV stays the profile's; otherwise the IV is the section's own.
  func initializationMaterial() throws -> Material? {
    guard encryption.encryptInit else { return nil }
    if let initialization { return initialization }
    guard let first = try material(for: encryption.clearLeadSegments) else { return nil }
    let iv: [UInt8]
    if case .fixed(let fixed) = encryption.iv {
      iv = fixed
    } else {
      iv = try keys.initializationIV(rendition: rendition)
    }
    var tag = first.tag
    tag.iv = iv
    let material = Material(key: first.key, iv: iv, tag: tag)
    initialization = material
    return material
  }
}
