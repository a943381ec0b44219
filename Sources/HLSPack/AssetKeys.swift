import Foundation
import HLSPackCore
import HLSPackCrypto

/// The key of one asset: generated, written to `keys/<key id>.key` (16 raw
/// bytes, mode 0600) and referenced by a URI. Key bytes are never logged.
struct AssetKey {
  let key: ContentKey
  /// Path of the key file inside the asset.
  let file: String
  /// The URI written into EXT-X-KEY.
  let uri: String

  static func generate(settings: EncryptionSettings, assetFolder: URL) throws -> AssetKey {
    let key = ContentKey(id: try SecureRandom.bytes(16), bytes: try SecureRandom.bytes(16))
    let file = "keys/\(key.idHex).key"
    let url = assetFolder.appendingPathComponent(file)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try writePrivateFile(Data(key.bytes), to: url)
    // Media playlists sit one folder below the asset root.
    return AssetKey(key: key, file: file, uri: settings.keyURI ?? "../\(file)")
  }
}

/// Creates a file readable by its owner only; the mode is set at creation, so
/// the bytes are never visible to others, even briefly.
func writePrivateFile(_ data: Data, to url: URL) throws {
  guard FileManager.default.createFile(atPath: url.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
    throw PackError.output(path: url.path, reason: "cannot write the key file")
  }
}
