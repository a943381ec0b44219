import Foundation
import HLSPackCore
import HLSPackCrypto

/// Every key of one asset, made on first use by whichever rendition's thread
/// needs it, and written at once to `keys/<key id>.key` (16 raw bytes, 0600).
/// Asset-scope keys are shared, so the ring is locked.
final class KeyRing: @unchecked Sendable {
  struct Key: Sendable {
    var content: ContentKey
    /// Path of the key file inside the asset.
    var file: String
    var period: Int
  }

  private let settings: EncryptionSettings
  private let asset: String
  private let folder: URL
  private let derivation: SeedDerivation?
  private let lock = NSLock()
  private var keys: [String: Key] = [:]
  private var keyIVs: [String: [UInt8]] = [:]
  /// keys/ is made owner-only with the first key (an asset may have none).
  private var madeKeysFolder = false

  init(settings: EncryptionSettings, asset: String, folder: URL) {
    self.settings = settings
    self.asset = asset
    self.folder = folder
    derivation = settings.seed.map(SeedDerivation.init)
  }

  /// The key that encrypts `rendition`'s segments in key period `period`.
  func key(rendition: String, period: Int) throws -> Key {
    let scope = settings.scope == .asset ? "asset" : "rendition/\(rendition)"
    let name = "\(scope)/\(period)"
    return try lock.withLock {
      if let key = keys[name] { return key }
      let key = try make(scope: scope, period: period)
      keys[name] = key
      return key
    }
  }

  private func make(scope: String, period: Int) throws -> Key {
    let label = "\(asset)/\(scope)/\(period)"
    let bytes: [UInt8]
    switch settings.keySource {
    case .fixed(let given): bytes = given
    case .generated: bytes = try derivation?.bytes("key/\(label)") ?? SecureRandom.bytes(16)
    }
    let id = try settings.keyID ?? derivation?.bytes("key-id/\(label)") ?? SecureRandom.bytes(16)
    let content = ContentKey(id: id, bytes: bytes)
    let file = "keys/\(content.idHex).key"
    let url = folder.appendingPathComponent(file)
    if !madeKeysFolder {
      try PrivateFolder.create(url.deletingLastPathComponent())
      madeKeysFolder = true
    }
    try writeFile(bytes, to: url, mode: 0o600)
    return Key(content: content, file: file, period: period)
  }

  /// One IV per key (FairPlay delivers it with the key, not in the playlist).
  func keyIV(_ key: Key) throws -> [UInt8] {
    try lock.withLock {
      if let iv = keyIVs[key.content.idHex] { return iv }
      let iv = try derivation?.bytes("key-iv/\(key.content.idHex)") ?? SecureRandom.bytes(16)
      keyIVs[key.content.idHex] = iv
      return iv
    }
  }

  /// The IV of segment `index` of `rendition` in the random mode.
  func randomIV(rendition: String, index: Int) throws -> [UInt8] {
    try derivation?.bytes("iv/\(asset)/\(rendition)/\(index)") ?? SecureRandom.bytes(16)
  }

  /// The IV of `rendition`'s encrypted initialization section, unless the IV is fixed.
  func initializationIV(rendition: String) throws -> [UInt8] {
    try derivation?.bytes("init-iv/\(asset)/\(rendition)") ?? SecureRandom.bytes(16)
  }
}
