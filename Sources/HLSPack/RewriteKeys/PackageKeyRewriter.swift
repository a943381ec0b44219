import Foundation
import HLSPackCore
import HLSPackPackage

/// `hlspack rewrite-keys`: rewrites the key URIs of an existing HLS package
/// (made by hlspack, the ffmpeg CLI, Shaka Packager, Bento4…) with a
/// `KeyURITemplate`, copies the keys it can find to `keys/<key id>.key` and
/// writes keys.json. Only the `URI` values of key tags change; segments are
/// never touched.
///
/// Without `output` the package is rewritten in place, all files or none
/// (`FileTransaction`). With `output` a copy is built in a staging folder
/// beside it and renamed into place when complete.
public struct PackageKeyRewriter {
  /// The arguments cannot work together; nothing was read or written.
  public struct ArgumentError: Error, CustomStringConvertible, Equatable {
    public var description: String
  }

  public struct Summary: Sendable {
    /// The package folder that now holds the rewritten playlists.
    public var result: URL
    /// Package paths of the playlists whose bytes changed.
    public var rewrittenPlaylists: [String]
    public var keyTags: Int
    /// Keys copied (or already present) at `keys/<key id>.key`.
    public var keyFiles: Int
    /// Old URIs whose key was not found (allowed when the template needs no key).
    public var unknownKeyURIs: [String]
    public var warnings: [String]
  }

  public let package: URL
  public let template: KeyURITemplate
  public let output: URL?
  public let replace: Bool

  public init(package: URL, template: KeyURITemplate, output: URL?, replace: Bool) throws(ArgumentError) {
    self.package = package.standardizedFileURL
    self.template = template
    self.output = output?.standardizedFileURL
    self.replace = replace
    if replace, output == nil {
      throw ArgumentError(
        description: "--force only applies with --output (without it the package is rewritten in place)")
    }
    if let output = self.output {
      let source = Self.resolved(self.package).path
      let target = Self.resolved(output).path
      if target == source {
        throw ArgumentError(
          description: "--output \(output.path) is the package itself; leave --output out to rewrite it in place")
      }
      if target.hasPrefix(source + "/") {
        throw ArgumentError(description: "--output \(output.path) is inside the package \(self.package.path)")
      }
      if source.hasPrefix(target + "/") {
        throw ArgumentError(
          description:
            "--output \(output.path) contains the package \(self.package.path); replacing it would delete the package")
      }
    }
  }

  /// `url` with every symbolic link in it resolved, also in the folders
  /// above a last part that does not exist yet (a new --output folder).
  private static func resolved(_ url: URL) -> URL {
    var existing = url
    var missing: [String] = []
    while !FileManager.default.fileExists(atPath: existing.path), existing.pathComponents.count > 1 {
      missing.insert(existing.lastPathComponent, at: 0)
      existing.deleteLastPathComponent()
    }
    return missing.reduce(existing.resolvingSymlinksInPath()) { $0.appendingPathComponent($1) }
  }

  /// The asset name for `{asset}`: the package folder's name, also when the
  /// result is written elsewhere.
  public var asset: String { package.lastPathComponent }

  public func run() throws -> Summary {
    // The folder's listing does not follow a link given as the package itself.
    let package = Self.resolved(self.package)
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: package.path, isDirectory: &isFolder) else {
      throw PackError.input(path: package.path, reason: "no such folder")
    }
    guard isFolder.boolValue else { throw PackError.input(path: package.path, reason: "not a folder") }
    // In place: one run at a time, and what a killed one left goes first, so the inventory no longer sees it.
    let journal = output == nil ? try RewriteJournal(package: package) : nil
    defer { journal?.finish() }

    let inventory = try PackageInventory(of: package)
    if output != nil, !inventory.links.isEmpty {
      let list = inventory.links.map { package.appendingPathComponent($0).path }.joined(separator: ", ")
      throw PackError.input(
        path: list,
        reason: "symbolic links: --output never copies one, as the copy could lead anywhere; "
          + "replace them with what they point at, or rewrite in place")
    }
    let paths = inventory.playlists
    guard !paths.isEmpty else {
      throw PackError.input(path: package.path, reason: "no .m3u8 playlist below this folder")
    }
    let playlists = try paths.map {
      PackagePlaylist(relativePath: $0, bytes: try PackageFiles.readPlaylist(package.appendingPathComponent($0)))
    }
    let manifest = try KeysManifestFile.read(in: package)
    var locator = KeyLocator(packageFolder: package, manifest: manifest)
    let plan = try RewritePlan(
      package: package, asset: asset, playlists: playlists, template: template, locator: &locator)

    var warnings = [journal?.removedNote].compactMap(\.self) + inventory.warnings(package: package, copying: output != nil)
    if plan.keyTagCount == 0 {
      warnings.append(
        "\(package.path): no EXT-X-KEY or EXT-X-SESSION-KEY with a URI in any playlist; nothing to rewrite")
    }
    warnings += plan.warnings

    let result: URL
    if let output {
      let staging = try AssetStaging(destination: output, replace: replace)
      warnings += [staging.removedLeftoversNote, staging.othersFoldersWarning].compactMap(\.self)
      // Keys the rewrite stages are written afresh, owner-only, not copied with the source's mode.
      let staged = Set(plan.keys.keys.map(RewritePlan.keyFile))
      try PackageCopy.copy(inventory, from: package, into: staging.folder, except: staged)
      try apply(plan, in: staging.folder, previous: manifest)
      if let warning = try staging.publish() { warnings.append(warning) }
      result = output
    } else {
      try apply(plan, in: package, previous: manifest, journal: journal)
      result = package
    }
    return Summary(
      result: result, rewrittenPlaylists: plan.playlists.keys.sorted(), keyTags: plan.keyTagCount,
      keyFiles: plan.keys.count, unknownKeyURIs: plan.unknownKeyURIs.sorted(), warnings: warnings)
  }

  /// All files change together or none does (a failure leaves the package as
  /// it was). They are renamed into place keys first, so that every new URI
  /// resolves as soon as a playlist shows it, and keys.json last, so that it
  /// describes the playlists as written.
  private func apply(
    _ plan: RewritePlan, in folder: URL, previous: KeysManifest?, journal: RewriteJournal? = nil
  ) throws {
    try FileTransaction.run(in: folder, noteTemporary: journal.map { journal in journal.record }) { files in
      for (id, bytes) in plan.keys.sorted(by: { $0.key < $1.key }) {
        try PackageCopy.stageKey(bytes, id: id, in: folder, files)
      }
      for (path, bytes) in plan.playlists.sorted(by: { $0.key < $1.key }) {
        try files.write(bytes, to: folder.appendingPathComponent(path))
      }
      guard plan.keyTagCount > 0 else { return }
      try files.write(
        KeysManifestFile.encode(KeysManifestFile.merge(plan.manifestEntries, into: previous)),
        to: folder.appendingPathComponent(KeysManifestFile.name))
    }
  }
}
