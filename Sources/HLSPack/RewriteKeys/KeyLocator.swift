import Foundation
import HLSPackCore
import HLSPackCrypto
import HLSPackPackage

/// What `rewrite-keys` knows about the key behind one key URI.
struct LocatedKey {
  /// Two tags refer to the same key when their identities are equal: the key
  /// id when known, else the URI (resolved to a file path when relative).
  enum Identity: Hashable {
    case keyID(String)
    case unknown(String)
  }

  var identity: Identity
  /// 32 lower-case hex digits, when known.
  var keyID: String?
  /// The 16 key bytes when a readable file holds them. Never printed.
  var bytes: [UInt8]?
  /// The key file keys.json names, kept when its bytes cannot be read.
  var manifestKeyFile: String?
  /// Why the key is unknown, for the error when the template needs it.
  var unknownReason: String?
}

/// Finds the key behind an existing key URI, in the order the spec gives:
/// (1) an entry of the package's keys.json with that `uri`; (2) a relative or
/// file:// URI naming a readable 16-byte file inside the package (identity key format only);
/// (3) otherwise unknown. Results are cached per playlist folder and URI.
struct KeyLocator {
  let packageFolder: URL
  let manifest: KeysManifest?
  private var cache: [String: LocatedKey] = [:]

  init(packageFolder: URL, manifest: KeysManifest?) {
    self.packageFolder = packageFolder
    self.manifest = manifest
  }

  mutating func locate(
    _ tag: KeyURIRewriter.KeyTagLine, uri: String, in playlist: PackagePlaylist
  ) throws -> LocatedKey {
    let cacheKey = [
      playlist.folderComponents.joined(separator: "/"), playlist.rendition, uri, tag.value(of: "KEYID") ?? "",
    ]
    .joined(separator: "\n")
    if let cached = cache[cacheKey] { return cached }
    let located = try find(tag, uri: uri, in: playlist)
    cache[cacheKey] = located
    return located
  }

  private func find(_ tag: KeyURIRewriter.KeyTagLine, uri: String, in playlist: PackagePlaylist) throws -> LocatedKey {
    let playlistPath = packageFolder.appendingPathComponent(playlist.relativePath).path
    if let entry = try manifestEntry(uri: uri, rendition: playlist.rendition, playlistPath: playlistPath) {
      guard let id = Hex.decode(entry.keyID), id.count == 16 else {
        throw PackError.input(path: manifestURL.path, reason: "key_id \"\(entry.keyID)\" is not 32 hex digits")
      }
      let file = PackagePaths.normalize(entry.keyFile)
        .map { packageFolder.appendingPathComponent($0) }
      let bytes = file.flatMap {
        if case .key(let bytes) = PackageKeyFile.read(at: $0, within: packageFolder) { bytes } else { nil }
      }
      return LocatedKey(
        identity: .keyID(Hex.encode(id)), keyID: Hex.encode(id), bytes: bytes,
        manifestKeyFile: entry.keyFile)
    }

    let scheme = URIReference.scheme(of: uri)
    let unknownIdentity = LocatedKey.Identity.unknown(scheme == nil ? "\(playlist.folderComponents)|\(uri)" : uri)
    func unknown(_ reason: String) -> LocatedKey {
      LocatedKey(identity: unknownIdentity, unknownReason: reason)
    }
    guard tag.keyFormat == "identity" else {
      return unknown("KEYFORMAT=\"\(tag.keyFormat)\" is not an identity key and keys.json has no entry for it")
    }
    let file: URL
    switch scheme {
    case nil where uri.hasPrefix("/"):
      return unknown(
        "an absolute path is resolved against the web server's root, not the package, and keys.json has no entry for it"
      )
    case nil:
      let folder = playlist.folderComponents.reduce(packageFolder) { $0.appendingPathComponent($1) }
      let literal = folder.appendingPathComponent(uri).standardizedFileURL
      let decoded = uri.removingPercentEncoding.map { folder.appendingPathComponent($0).standardizedFileURL }
      file = FileManager.default.fileExists(atPath: literal.path) ? literal : (decoded ?? literal)
    case "file"?:
      guard let url = URL(string: uri), url.isFileURL, [nil, "", "localhost"].contains(url.host) else {
        return unknown("not a usable file: URI")
      }
      file = url
    case let other?:
      let kind = other == "http" || other == "https" ? "a remote URI" : "a custom-scheme URI"
      return unknown("\(kind) with no entry in keys.json")
    }

    switch PackageKeyFile.read(at: file, within: packageFolder) {
    case .missing:
      return unknown("no key file at \(file.path) and no entry in keys.json")
    case .outside(let real):
      return unknown("it leads to \(real), outside the package, which was not read")
    case .notKeyFile(let reason):
      return unknown("\(file.path) is not a key file \(reason), and keys.json has no entry for it")
    case .key(let bytes):
      let keyID: String
      if let written = tag.value(of: "KEYID") {
        guard let id = Hex.decode(written), id.count == 16 else {
          throw PackError.input(
            path: playlistPath, reason: "line \(tag.lineNumber): KEYID=\(written) is not 0x + 32 hex digits")
        }
        keyID = Hex.encode(id)
      } else {
        // No id anywhere: derive one from the key so every playlist that
        // uses this key agrees on it, whichever path it was reached by.
        keyID = Hex.encode(Array(try Digest.sha256(bytes).prefix(16)))
      }
      return LocatedKey(identity: .keyID(keyID), keyID: keyID, bytes: bytes)
    }
  }

  var manifestURL: URL { packageFolder.appendingPathComponent(KeysManifestFile.name) }

  /// The keys.json entry for `uri`. Relative URIs such as `key.key` can mean
  /// different keys in different folders, so when entries disagree, the one
  /// listing this rendition wins.
  private func manifestEntry(uri: String, rendition: String, playlistPath: String) throws -> KeysManifest.Key? {
    let matches = manifest?.keys.filter { $0.uri == uri } ?? []
    guard Set(matches.map { $0.keyID.lowercased() }).count > 1 else { return matches.first }
    let narrowed = matches.filter { $0.renditions.contains(rendition) }
    guard Set(narrowed.map { $0.keyID.lowercased() }).count == 1, let entry = narrowed.first else {
      throw PackError.input(
        path: playlistPath,
        reason:
          "keys.json has several keys for URI \"\(RewritePlan.shown(uri))\" and none only for rendition \"\(rendition)\""
      )
    }
    return entry
  }
}
