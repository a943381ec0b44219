import Foundation

/// Where each segment's IV comes from.
public enum IVMode: Sendable, Equatable {
  /// An explicit, unpredictable IV per segment (written as IV=0x...); derived from the seed when one is set.
  case random
  /// No IV attribute: clients derive it from the media sequence number (RFC 8216 §5.2).
  case sequence
  /// The same explicit IV on every segment, to match another tool; IVs repeat.
  case fixed([UInt8])
}

/// Where the key bytes come from.
public enum KeySource: Sendable, Equatable {
  /// OpenSSL's CSPRNG, or derived from the seed when one is set.
  case generated
  /// One given key (from `key_file`, `key_hex`, `key_env` or `key_info`), already read.
  case fixed([UInt8])
}

public enum KeyScope: String, Sendable, Equatable, CaseIterable {
  /// One key (per period) for every rendition of an asset.
  case asset
  /// A different key (per period) for each rendition.
  case rendition
}

public struct EncryptionSettings: Sendable, Equatable {
  public var method: EncryptionMethod
  public var keySource: KeySource
  /// The key id of a single key; nil = generated (or derived from the seed).
  public var keyID: [UInt8]?
  public var scope: KeyScope
  public var keyURI: KeyURITemplate
  /// A new key every N segments, at the same indices in every rendition.
  public var rotateEvery: Int?
  public var iv: IVMode
  /// KEYFORMAT / KEYFORMATVERSIONS, written only when set (absent means "identity" / "1").
  public var keyFormat: String?
  public var keyFormatVersions: String?
  /// Derives keys, key ids and IVs deterministically and makes encoding bit-exact.
  public var seed: String?
  /// Put key bytes into keys.json (which is then mode 0600).
  public var exportKeys: Bool
  /// Write an FFmpeg key-info file per rendition and key period.
  public var writeKeyInfo: Bool
  /// Where key files, keys.json and key-info files go instead of the asset,
  /// in a folder per asset (`<keysFolder>/<asset>/`); nil: inside the asset.
  public var keysFolder: URL?
  /// FairPlay signalling: KEYFORMAT com.apple.streamingkeydelivery, version 1, no IV attribute.
  public var fairPlay: Bool
  /// EXT-X-SESSION-KEY in the master playlist for every distinct key tag.
  public var sessionKey: Bool
  /// HDCP-LEVEL on the video variants.
  public var hdcp: HDCPPolicy = .omitted
  /// The first N segments of every rendition stay clear (METHOD=NONE).
  public var clearLeadSegments: Int
  /// AES-128 fMP4: the initialization section is encrypted too, under an
  /// EXT-X-KEY with an explicit IV written before its EXT-X-MAP (RFC 8216bis §4.4.4.5).
  public var encryptInit = false
  /// Key files read from the profile that users other than their owner can open.
  public var exposedKeyFiles: [String] = []
  /// Every file the key came from (key_file; key_info and the key file it
  /// names): files of the run, which `--force` never deletes.
  public var keyFiles: [String] = []

  public init(
    method: EncryptionMethod, keySource: KeySource = .generated, keyID: [UInt8]? = nil, scope: KeyScope = .asset,
    keyURI: KeyURITemplate = .keyFile, rotateEvery: Int? = nil, iv: IVMode = .random, keyFormat: String? = nil,
    keyFormatVersions: String? = nil, seed: String? = nil, exportKeys: Bool = false, writeKeyInfo: Bool = false,
    fairPlay: Bool = false, sessionKey: Bool = false, clearLeadSegments: Int = 0
  ) {
    self.method = method
    self.keySource = keySource
    self.keyID = keyID
    self.scope = scope
    self.keyURI = keyURI
    self.rotateEvery = rotateEvery
    self.iv = iv
    self.keyFormat = keyFormat
    self.keyFormatVersions = keyFormatVersions
    self.seed = seed
    self.exportKeys = exportKeys
    self.writeKeyInfo = writeKeyInfo
    self.fairPlay = fairPlay
    self.sessionKey = sessionKey
    self.clearLeadSegments = clearLeadSegments
  }

  public static let none = EncryptionSettings(method: .none)

  /// Why the key URI cannot work with `keysFolder`, if it cannot: `{key_file}`
  /// is a path from the playlist to a key file inside the asset.
  public var keysFolderConflict: String? {
    guard keysFolder != nil, keyURI.text.contains("{key_file}") else { return nil }
    return "keeps the keys out of the asset, but key_uri \"\(keyURI.text)\" names key files inside it with {key_file}; "
      + "use a URI your key server or app resolves, such as skd://{key_id} or https://keys.example.com/{key_id}"
  }
}
