import Foundation
import HLSPackCore

/// The key bytes a package's key URIs lead to, each read once; the findings
/// about a key file are made on that first read, so each is reported once.
struct VerifyKeyStore {
  let root: URL
  private var cache: [String: [UInt8]?] = [:]
  private(set) var findings: [Finding] = []

  init(root: URL) { self.root = root }

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
    let url = root.appendingPathComponent(VerifyPaths.stripQuery(resolved)).standardizedFileURL
    var info = stat()
    guard stat(url.path, &info) == 0 else {
      findings.append(Finding(VerifyRules.keyFileMissing, file: file, line: line, detail: "no file \(resolved)"))
      return nil
    }
    // Its mode and size are read from the status: a named pipe or a device
    // is never opened (its open or reads could wait for ever), and a large
    // file is reported by its size, not read.
    guard info.st_mode & S_IFMT == S_IFREG else {
      findings.append(
        Finding(
          VerifyRules.keyUnavailable, file: file, line: line, detail: "\(resolved) is \(SmallFile.kind(info.st_mode))"))
      return nil
    }
    if info.st_mode & 0o004 != 0 {
      findings.append(
        Finding(
          VerifyRules.keyFileWorldReadable, file: file, line: line,
          detail: "\(resolved) has mode \(String(info.st_mode & 0o777, radix: 8))"))
    }
    guard info.st_size == 16 else {
      findings.append(
        Finding(VerifyRules.keyFileSize, file: file, line: line, detail: "\(resolved) is \(info.st_size) bytes"))
      return nil
    }
    do {
      return try SmallFile.readRegular(url.path, limit: 16)
    } catch {
      findings.append(
        Finding(VerifyRules.keyUnavailable, file: file, line: line, detail: "\(resolved) \(error.reason)"))
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
