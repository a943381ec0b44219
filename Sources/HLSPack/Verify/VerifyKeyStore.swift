import Foundation
import HLSPackCore

/// The key bytes a package's key URIs lead to, each read once; the findings
/// about a key file are made on that first read, so each is reported once.
struct VerifyKeyStore {
  let source: any PackageSource
  private var cache: [String: [UInt8]?] = [:]
  private(set) var findings: [Finding] = []

  init(source: any PackageSource) { self.source = source }

  /// The 16 key bytes of `key`, written in the playlist `file` (package-relative)
  /// whose folder is `folder`; nil when they cannot be had, with the reason
  /// recorded as a finding the first time.
  mutating func bytes(for key: VerifiedMediaPlaylist.Key, file: String, folder: String) -> [UInt8]? {
    guard let uri = key.uri else { return nil }
    let resolved = URIReference.fromPackageRoot(uri, writtenIn: folder)
    if let known = cache[resolved] { return known }
    let loaded = load(uri: uri, resolved: resolved, file: file, line: key.line)
    cache[resolved] = loaded
    return loaded
  }

  private mutating func load(uri: String, resolved: String, file: String, line: Int) -> [UInt8]? {
    guard URIReference.scheme(of: uri) == nil, !uri.hasPrefix("/") else {
      findings.append(
        Finding(VerifyRules.keyUnavailable, file: file, line: line, detail: "\(uri) is not a file of the package"))
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

enum VerifyPaths {
  /// A URI's path without its query and fragment, to open as a file.
  static func stripQuery(_ reference: String) -> String {
    String(reference[..<(reference.firstIndex { $0 == "?" || $0 == "#" } ?? reference.endIndex)])
  }

  /// The folder of a package-relative path ("" at the root).
  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return String(path[..<slash])
  }
}
