import Foundation
import HLSPackCore

/// keys.json, the `KeysManifest` of a package or of its keys folder: its
/// name, how large it may be, and its bytes as hlspack reads and writes them
/// (encode's `AssetOutputs`, `rewrite-keys`, verify's `--keys`).
public enum KeysManifestFile {
  public static let name = "keys.json"

  /// keys.json lists every segment of every key: some 110 bytes a segment, 50 MiB for a playlist at `PackageFiles.playlistLimit`.
  public static let limit = 256 << 20

  /// The package's own keys.json, read only from inside the package; nil when it has none.
  public static func read(in package: URL) throws -> KeysManifest? {
    let url = package.appendingPathComponent(name)
    let bytes: [UInt8]
    switch PackageFiles.readInside(url, package: package, limit: limit) {
    case .missing: return nil
    case .outside(let real):
      throw PackError.input(path: url.path, reason: "leads to \(real), outside the package; not read")
    case .unreadable(let reason): throw PackError.input(path: url.path, reason: "cannot read \(reason)")
    case .bytes(let read): bytes = read
    }
    return try decode(bytes, at: url)
  }

  /// A keys.json named by the user (`verify --keys`), wherever it is. Throws
  /// `SmallFile.Failure` when it cannot be read, `PackError` when it is not a manifest.
  public static func read(at url: URL) throws -> KeysManifest {
    try decode(try SmallFile.readRegular(url.path, limit: limit), at: url)
  }

  public static func decode(_ bytes: [UInt8], at url: URL) throws -> KeysManifest {
    do {
      return try JSONDecoder().decode(KeysManifest.self, from: Data(bytes))
    } catch {
      throw PackError.input(path: url.path, reason: "not a readable keys manifest (\(error))")
    }
  }

  /// Sorted keys, slashes unescaped, a final newline: the same manifest always has the same bytes.
  public static func encode(_ manifest: KeysManifest) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(manifest)) + Array("\n".utf8)
  }

  /// The new entries replace every entry of the same keys; entries of keys no
  /// playlist uses any more are kept, so a manifest never loses a key. Key
  /// bytes stay only where the previous manifest had them (an encode with
  /// `export_keys`, whose keys.json is owner-only and keeps its mode); the
  /// merge never adds any.
  public static func merge(_ entries: [KeysManifest.Key], into previous: KeysManifest?) -> KeysManifest {
    let old = previous?.keys ?? []
    var exported: [String: String] = [:]
    for entry in old { if let key = entry.key { exported[entry.keyID.lowercased()] = key } }
    let ids = Set(entries.map { $0.keyID.lowercased() })
    let updated = entries.map { entry in
      var withKey = entry
      withKey.key = exported[entry.keyID.lowercased()]
      return withKey
    }
    return KeysManifest(keys: updated + old.filter { !ids.contains($0.keyID.lowercased()) })
  }
}
