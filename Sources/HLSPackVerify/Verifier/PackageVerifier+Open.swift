import Foundation

import HLSPackCore

extension PackageVerifier {
  /// `package` is a folder holding master.m3u8, a master or media playlist,
  /// or the http(s) URL of a folder (ending in "/") or of a playlist, read with `http`.
  public init(opening package: String, relativeTo folder: URL, http: HTTPReadOptions = .init()) throws(VerifyError) {
    if let url = URL(string: package), ["http", "https"].contains(url.scheme?.lowercased() ?? "") {
      self = try Self.remote(url, session: try HTTPSession(http))
    } else {
      try self.init(package: URL(fileURLWithPath: package, relativeTo: folder).standardizedFileURL)
    }
  }

  /// `package` is a local folder holding master.m3u8, or a master or media playlist.
  public init(package: URL) throws(VerifyError) {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: package.path, isDirectory: &isFolder) else {
      throw VerifyError(description: "\(package.path): no such file or folder")
    }
    guard !isFolder.boolValue else {
      self.init(source: LocalPackageFolder(folder: package), entry: Self.defaultEntry)
      return
    }
    let (folder, entry) = Self.packageFolder(
      of: package.lastPathComponent, in: package.deletingLastPathComponent(),
      step: { $0.deletingLastPathComponent() },
      holdsMaster: { (try? LocalPackageFolder(folder: $0).size(Self.defaultEntry)) != nil })
    self.init(source: LocalPackageFolder(folder: folder), entry: entry)
  }

  public static let defaultEntry = "master.m3u8"

  /// The nearest folder, the playlist's own or one of the two above it, that
  /// holds a master.m3u8 (a media playlist of an asset names its keys in
  /// "../keys/"), else the playlist's own; and the playlist's path from there.
  private static func packageFolder(
    of name: String, in folder: URL, step: (URL) -> URL, holdsMaster: (URL) -> Bool
  ) -> (URL, String) {
    var candidate = folder
    var entry = name
    for _ in 0..<3 {
      if holdsMaster(candidate) { return (candidate, entry) }
      let up = step(candidate)
      guard up.path != candidate.path, candidate.path != "/" else { break }
      entry = candidate.lastPathComponent + "/" + entry
      candidate = up
    }
    return (folder, name)
  }

  private static func remote(_ url: URL, session: HTTPSession) throws(VerifyError) -> PackageVerifier {
    if url.hasDirectoryPath || url.path.isEmpty {
      return PackageVerifier(source: HTTPPackageSource(folder: url, session: session), entry: defaultEntry)
    }
    let name = url.lastPathComponent + (url.query.map { "?" + $0 } ?? "")
    guard let own = URL(string: "./", relativeTo: url)?.absoluteURL else {
      throw VerifyError(description: "\(URLCredentials.masked(url.absoluteString)): not a usable URL")
    }
    let (folder, entry) = packageFolder(
      of: name, in: own, step: { URL(string: "../", relativeTo: $0)?.absoluteURL ?? $0 },
      holdsMaster: { HTTPPackageSource(folder: $0, session: session).exists(defaultEntry) })
    return PackageVerifier(source: HTTPPackageSource(folder: folder, session: session), entry: entry)
  }
}
