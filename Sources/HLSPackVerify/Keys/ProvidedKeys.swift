import Foundation
import HLSPackCore

import HLSPackPackage

/// Keys given to `verify` for key URIs the package cannot serve itself
/// (`skd://…`, `myapp-key://…`, `https://…`, an absolute path): from
/// `--key URI=FILE|HEX` and from an hlspack keys.json. They are looked up by
/// the URI exactly as a playlist writes it; a relative URI's key always
/// comes from the package's own file, as a client's does.
public struct ProvidedKeys: Sendable {
  enum Entry: Sendable, Equatable {
    case key([UInt8])
    /// Why the key given for the URI cannot be used.
    case unusable(String)
  }

  private var entries: [String: Entry] = [:]

  public init() {}

  func lookup(_ uri: String) -> Entry? { entries[uri] }

  /// `URI=HEX` (32 hex digits) or `URI=FILE` (a 16-byte regular file). The
  /// split is at the last "=", since a URI may hold one in its query. A key
  /// given this way replaces what a keys.json gave for the same URI.
  public mutating func add(argument: String) throws(VerifyError) {
    guard let equals = argument.lastIndex(of: "="), equals != argument.startIndex else {
      throw VerifyError(description: "--key \(argument): expected URI=FILE or URI=HEX")
    }
    let uri = String(argument[..<equals])
    let value = String(argument[argument.index(after: equals)...])
    if value.count == 32, let bytes = Hex.decode(value) {
      entries[uri] = .key(bytes)
      return
    }
    let bytes: [UInt8]
    do {
      bytes = try SmallFile.readRegular(value, limit: 16)
    } catch {
      throw VerifyError(
        // The value is not echoed: it may be a key with a typo in it.
        description:
          "--key \(uri)=…: the value is neither 32 hex digits nor a readable key file \(error.reason)")
    }
    guard bytes.count == 16 else {
      throw VerifyError(description: "--key \(uri)=\(value): the key file has \(bytes.count) bytes, not 16")
    }
    entries[uri] = .key(bytes)
  }

  /// Every key of an hlspack keys.json (`KeysManifest`): the key it exports
  /// (`key`), else its `key_file`, read relative to the keys.json's folder
  /// and only from inside it. Two different keys for one URI make it unusable.
  public mutating func add(manifest url: URL) throws(VerifyError) {
    let folder = url.deletingLastPathComponent()
    let manifest: KeysManifest
    do {
      manifest = try KeysManifestFile.read(at: url)
    } catch let failure as SmallFile.Failure {
      throw VerifyError(description: "--keys \(url.path): cannot read \(failure.reason)")
    } catch {
      throw VerifyError(description: "--keys \(error)")
    }
    var found: [String: Entry] = [:]
    for key in manifest.keys {
      let entry = Self.entry(key, folder: folder)
      switch (found[key.uri], entry) {
      case (nil, _), (.unusable?, .key): found[key.uri] = entry
      case (.key(let known)?, .key(let other)) where known != other:
        found[key.uri] = .unusable("\(url.lastPathComponent) gives different keys for this URI")
      default: break
      }
    }
    entries.merge(found) { _, fromManifest in fromManifest }
  }

  private static func entry(_ key: KeysManifest.Key, folder: URL) -> Entry {
    if let hex = key.key {
      guard hex.count == 32, let bytes = Hex.decode(hex) else { return .unusable("its key is not 32 hex digits") }
      return .key(bytes)
    }
    guard let path = PackagePaths.normalize(key.keyFile) else {
      return .unusable("its key file \(key.keyFile) lies above the keys.json folder; not read")
    }
    switch PackageKeyFile.read(at: folder.appendingPathComponent(path), within: folder) {
    case .key(let bytes): return .key(bytes)
    case .missing: return .unusable("its key file \(key.keyFile) does not exist")
    case .outside(let real): return .unusable("its key file \(key.keyFile) leads to \(real), outside; not read")
    case .notKeyFile(let reason): return .unusable("its key file \(key.keyFile) is not a key file \(reason)")
    }
  }
}
