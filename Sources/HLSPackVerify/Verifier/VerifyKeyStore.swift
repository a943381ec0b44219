import Foundation

import HLSPackCore

/// The key bytes a package's key URIs lead to, each read once; the findings
/// about a key file are made on that first read, so each is reported once.
struct VerifyKeyStore {
  let source: any PackageSource
  let provided: ProvidedKeys
  private var cache: [String: [UInt8]?] = [:]
  /// Resolved URIs whose key is missing with no must-fix finding about it
  /// (no key given for an app scheme): their segments' checks are reported as not made.
  private var unavailable: Set<String> = []
  private(set) var findings: [Finding] = []

  init(source: any PackageSource, provided: ProvidedKeys) {
    self.source = source
    self.provided = provided
  }

  /// Whether `key` (already asked for) has no bytes and only a should-fix finding says so.
  func isUnavailable(_ key: VerifiedMediaPlaylist.Key, folder: String) -> Bool {
    guard let uri = key.uri else { return false }
    return unavailable.contains(URIReference.fromPackageRoot(uri, writtenIn: folder))
  }

  /// The 16 key bytes of `key`, written in the playlist `file` (package-relative)
  /// whose folder is `folder`; nil when they cannot be had, with the reason
  /// recorded as a finding the first time.
  mutating func bytes(for key: VerifiedMediaPlaylist.Key, file: String, folder: String) -> [UInt8]? {
    guard let uri = key.uri else { return nil }
    let resolved = URIReference.fromPackageRoot(uri, writtenIn: folder)
    if let known = cache[resolved] { return known }
    let loaded = load(uri: uri, resolved: resolved, file: file, line: key.line)
    cache[resolved] = loaded
    if loaded == nil, findings.last?.rule == VerifyRules.keyUnavailable { unavailable.insert(resolved) }
    return loaded
  }

  private mutating func load(uri: String, resolved: String, file: String, line: Int) -> [UInt8]? {
    guard URIReference.scheme(of: uri) == nil, !uri.hasPrefix("/") else {
      let reason: String
      switch provided.lookup(uri) {
      case .key(let bytes)?: return bytes
      case .unusable(let why)?: reason = "the key given for \(uri) cannot be used: \(why)"
      case nil: reason = "\(uri) is not a file of the package, and no key was given for it (--key, --keys)"
      }
      findings.append(Finding(VerifyRules.keyUnavailable, file: file, line: line, detail: reason))
      return nil
    }
    // The size comes first: a large file is reported by its size, not read.
    let size: Int
    do {
      size = try source.size(resolved)
    } catch {
      findings.append(
        PackageVerifier.accessFinding(
          error, path: resolved, otherwise: error == .missing ? VerifyRules.keyFileMissing : VerifyRules.keyUnavailable,
          file: file, line: line))
      return nil
    }
    if let mode = source.permissions(resolved), mode & 0o004 != 0 {
      findings.append(
        Finding(
          VerifyRules.keyFileWorldReadable, file: file, line: line,
          detail: "\(resolved) has mode \(String(mode, radix: 8))"))
    }
    guard size == 16 else {
      findings.append(Finding(VerifyRules.keyFileSize, file: file, line: line, detail: "\(resolved) is \(size) bytes"))
      return nil
    }
    do {
      return try source.readWhole(resolved, limit: 16)
    } catch {
      findings.append(
        PackageVerifier.accessFinding(
          error, path: resolved, otherwise: VerifyRules.keyUnavailable, file: file, line: line))
      return nil
    }
  }
}
