import Foundation
import HLSPackCore

/// An asset's keys kept out of the asset (`encryption.keys_dir`):
/// `<keys folder>/<asset>/` with keys.json, key-info files and `keys/`, staged
/// and published like the asset, and readable by the owner only whatever the
/// umask: the folders 0700 (a keys folder the run makes too), the key files
/// 0600 (as `KeyRing` writes them).
enum KeysFolder {
  static func stage(_ destination: URL, replace: Bool, protecting: [URL]) throws -> AssetStaging {
    let parent = destination.deletingLastPathComponent()
    if !FileManager.default.fileExists(atPath: parent.path) {
      try createFolder(parent.deletingLastPathComponent())
      do {
        try PrivateFolder.create(parent)
      } catch  where FileManager.default.fileExists(atPath: parent.path) {
        // Another run of the same keys folder made it first.
      }
    }
    return try AssetStaging(destination: destination, replace: replace, protecting: protecting, ownerOnly: true)
  }
}
