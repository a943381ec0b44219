import Foundation
import HLSPackCore

/// Everything `rewrite-keys` will write, decided before anything is written, so
/// that an unknown key or a bad URI fails the run with the package untouched.
struct RewritePlan {
  /// New playlist bytes, by package path; only playlists that change.
  var playlists: [String: [UInt8]] = [:]
  /// Key files to put at `keys/<key id>.key`, by key id. Never printed.
  var keys: [String: [UInt8]] = [:]
  /// Entries for every known key URI now in the playlists.
  var manifestEntries: [KeysManifest.Key] = []
  var keyTagCount = 0
  var unknownKeyURIs: Set<String> = []
  /// Key tags left as they are and keys not found, each naming the playlist and line.
  var warnings: [String] = []

  static let keysFolder = "keys"
  static func keyFile(_ keyID: String) -> String { "\(keysFolder)/\(keyID).key" }

  /// A key URI as messages show it: a `data:` URI holds the key itself, and
  /// key bytes are never printed.
  static func shown(_ uri: String) -> String {
    URIReference.scheme(of: uri)?.lowercased() == "data" ? "data:…" : uri
  }

  /// One tag's decision.
  private struct Mapping {
    var playlist: Int
    /// Index into the playlist's `tags` (and `scopes`).
    var tagIndex: Int
    var tag: KeyURIRewriter.KeyTagLine
    var oldURI: String
    var newURI: String
    var key: LocatedKey
    var period: Int
  }

  init(
    package: URL, asset: String, playlists: [PackagePlaylist], template: KeyURITemplate, locator: inout KeyLocator
  ) throws {
    var mapper = TagMapper(package: package, asset: asset, playlists: playlists, template: template)
    try mapper.map(.key, locator: &locator) { _, _ in nil }
    // A session key announces a key the media playlists use, so it names the
    // same resource as the first media tag of that key (RFC 8216bis §4.4.6.5): the
    // same absolute URI, or the same file re-expressed from the multivariant
    // playlist's folder (also above the package), as `encode` writes it. A key
    // no media playlist uses gets the template rendered for the multivariant playlist itself.
    var firstMediaTag: [LocatedKey.Identity: Mapping] = [:]
    for m in mapper.mappings where firstMediaTag[m.key.identity] == nil { firstMediaTag[m.key.identity] = m }
    try mapper.map(.sessionKey, locator: &locator) { key, master in
      guard let media = firstMediaTag[key.identity] else { return nil }
      if URIReference.scheme(of: media.newURI) != nil || media.newURI.hasPrefix("/") { return media.newURI }
      let mediaFolder = playlists[media.playlist].folderComponents.joined(separator: "/")
      return master.relativeURI(toPackagePath: URIReference.fromPackageRoot(media.newURI, writtenIn: mediaFolder))
    }
    let mappings = mapper.mappings

    try Self.checkNoSharedURI(mappings, playlists: playlists, package: package, template: template)
    keyTagCount = mappings.count
    unknownKeyURIs = Set(mappings.filter { $0.key.keyID == nil }.map(\.oldURI))
    warnings =
      Self.unquotedURIWarnings(playlists, package: package)
      + Self.unknownKeyWarnings(mappings, playlists: playlists, package: package)
    keys = try Self.keyFiles(mappings, playlists: playlists, package: package)
    self.playlists = Self.rewrittenPlaylists(playlists, mappings: mappings)
    manifestEntries = Self.manifestEntries(
      mappings, playlists: playlists, previousIVs: Self.segmentIVs(locator.manifest))
  }

  /// Decides the new URI of every key tag, in the order the tags are mapped.
  private struct TagMapper {
    let package: URL
    let asset: String
    let playlists: [PackagePlaylist]
    let template: KeyURITemplate
    let needsKey: Bool
    private(set) var mappings: [Mapping] = []
    /// Per playlist: key identity → {period}, in order of first appearance.
    private var periods: [[LocatedKey.Identity: Int]]

    init(package: URL, asset: String, playlists: [PackagePlaylist], template: KeyURITemplate) {
      self.package = package
      self.asset = asset
      self.playlists = playlists
      self.template = template
      needsKey = template.usesKeyID || template.text.contains("{key_file}")
      periods = Array(repeating: [:], count: playlists.count)
    }

    /// Maps every tag of `kind` to the URI `choose` gives it, else to the template's.
    mutating func map(
      _ kind: KeyURIRewriter.KeyTagLine.Kind, locator: inout KeyLocator,
      _ choose: (LocatedKey, PackagePlaylist) -> String?
    ) throws {
      for (p, playlist) in playlists.enumerated() {
        for (t, tag) in playlist.tags.enumerated() where tag.kind == kind {
          guard let oldURI = tag.uri else { continue }
          let path = package.appendingPathComponent(playlist.relativePath).path
          let key = try locator.locate(tag, uri: oldURI, in: playlist)
          if needsKey, key.keyID == nil {
            throw PackError.input(
              path: path,
              reason:
                "line \(tag.lineNumber): URI \"\(RewritePlan.shown(oldURI))\": the key is unknown (\(key.unknownReason ?? "not found")), "
                + "but the template needs {key_id} or {key_file}")
          }
          let period = periods[p][key.identity] ?? periods[p].count
          periods[p][key.identity] = period
          let newURI =
            try choose(key, playlist)
            ?? rendered(key, period: period, for: tag, oldURI: oldURI, in: playlist, path: path)
          guard QuotedString.forbiddenCharacter(in: newURI) == nil else {
            throw PackError.input(
              path: path,
              reason:
                "line \(tag.lineNumber): the new URI for \"\(RewritePlan.shown(oldURI))\" would contain a quote or control character "
                + "(from a folder name?) and cannot be written into a playlist")
          }
          mappings.append(
            Mapping(playlist: p, tagIndex: t, tag: tag, oldURI: oldURI, newURI: newURI, key: key, period: period))
        }
      }
    }

    /// The template rendered for one tag's key; `path` is its playlist's, for errors.
    private func rendered(
      _ key: LocatedKey, period: Int, for tag: KeyURIRewriter.KeyTagLine, oldURI: String, in playlist: PackagePlaylist,
      path: String
    ) throws -> String {
      let keyFile = key.keyID.map {
        key.bytes == nil ? key.manifestKeyFile ?? RewritePlan.keyFile($0) : RewritePlan.keyFile($0)
      }
      if template.text.contains("{key_file}"), key.bytes == nil {
        throw PackError.input(
          path: path,
          reason:
            "line \(tag.lineNumber): URI \"\(RewritePlan.shown(oldURI))\": keys.json names key file \"\(keyFile ?? "")\", "
            + "which is not a readable 16-byte file inside the package, so {key_file} cannot point at it")
      }
      return template.render(
        .init(
          asset: asset, rendition: playlist.rendition, keyID: key.keyID ?? "", period: period,
          keyFile: keyFile.map(playlist.relativeURI(toPackagePath:)) ?? ""))
    }
  }

  /// New playlist bytes with every mapped tag's URI replaced, by package
  /// path; only the playlists that change.
  private static func rewrittenPlaylists(_ playlists: [PackagePlaylist], mappings: [Mapping]) -> [String: [UInt8]] {
    var rewrittenPlaylists: [String: [UInt8]] = [:]
    for (p, playlist) in playlists.enumerated() {
      let byLine = Dictionary(
        mappings.filter { $0.playlist == p }.map { ($0.tag.lineNumber, $0.newURI) }, uniquingKeysWith: { a, _ in a })
      let rewritten = KeyURIRewriter.removingRepeatedSessionKeys(
        KeyURIRewriter.rewrite(playlist.bytes) { byLine[$0.lineNumber] })
      if rewritten != playlist.bytes { rewrittenPlaylists[playlist.relativePath] = rewritten }
    }
    return rewrittenPlaylists
  }

  /// Two different keys must never end up behind one URI: a player would
  /// fetch one key for both. Relative URIs are compared by the file they
  /// resolve to, absolute ones by text.
  private static func checkNoSharedURI(
    _ mappings: [Mapping], playlists: [PackagePlaylist], package: URL, template: KeyURITemplate
  ) throws {
    let absolute = template.scheme != nil
    // {period} counts within a playlist, so only {key_id} tells every key apart on its own.
    let missing = ["key_id", "rendition", "period"].filter { !template.text.contains("{\($0)}") }
    let hint =
      missing.isEmpty ? "" : "; add " + missing.map { "{\($0)}" }.joined(separator: " or ") + " to the template"
    var owner: [String: Mapping] = [:]
    for m in mappings {
      let playlist = playlists[m.playlist]
      let target =
        absolute
        ? m.newURI : playlist.packagePath(ofRelative: m.newURI) ?? "\(playlist.folderComponents)|\(m.newURI)"
      if let first = owner[target], first.key.identity != m.key.identity {
        throw PackError.input(
          path: package.appendingPathComponent(playlist.relativePath).path,
          reason:
            "line \(m.tag.lineNumber): keys \"\(shown(first.oldURI))\" (\(playlists[first.playlist].relativePath)) and "
            + "\"\(shown(m.oldURI))\" would both get URI \"\(m.newURI)\"\(hint)")
      }
      owner[target] = owner[target] ?? m
    }
  }

  /// A key tag whose URI is not a quoted-string (RFC 8216bis §4.4.4.4,
  /// §4.4.6.5) is left as it is: a player may read it otherwise.
  private static func unquotedURIWarnings(_ playlists: [PackagePlaylist], package: URL) -> [String] {
    playlists.flatMap { playlist in
      playlist.tags.compactMap { tag in
        guard tag.uri == nil, let unquoted = tag.attributes.first(where: { $0.name == "URI" }) else { return nil }
        let path = package.appendingPathComponent(playlist.relativePath).path
        return "\(path): line \(tag.lineNumber): URI=\(shown(unquoted.value)) is not a quoted string; left as it is"
      }
    }
  }

  /// One warning per key URI whose key was not found (allowed when the
  /// template needs none), at its first tag, with the reason.
  private static func unknownKeyWarnings(_ mappings: [Mapping], playlists: [PackagePlaylist], package: URL) -> [String]
  {
    var warned: Set<String> = []
    return mappings.compactMap { m in
      guard m.key.keyID == nil, warned.insert(m.oldURI).inserted else { return nil }
      let path = package.appendingPathComponent(playlists[m.playlist].relativePath).path
      return
        "\(path): line \(m.tag.lineNumber): key URI \"\(shown(m.oldURI))\": \(m.key.unknownReason ?? "not found"); "
        + "rewritten without copying a key or adding it to keys.json"
    }
  }

  /// Key bytes to copy to `keys/<key id>.key`; one id must mean one key.
  private static func keyFiles(_ mappings: [Mapping], playlists: [PackagePlaylist], package: URL) throws -> [String:
    [UInt8]]
  {
    var keys: [String: [UInt8]] = [:]
    for m in mappings {
      guard let id = m.key.keyID, let bytes = m.key.bytes else { continue }
      if let other = keys[id], other != bytes {
        throw PackError.input(
          path: package.appendingPathComponent(playlists[m.playlist].relativePath).path,
          reason:
            "line \(m.tag.lineNumber): URI \"\(shown(m.oldURI))\" names a different key with the same key id \(id) as another tag"
        )
      }
      keys[id] = bytes
    }
    return keys
  }

  /// The IV the package's keys.json gives each segment, by package path: the
  /// only record of it when the playlist leaves it out (FairPlay delivers it
  /// with the key; sequence IVs are implicit).
  private static func segmentIVs(_ manifest: KeysManifest?) -> [String: String] {
    var ivs: [String: String] = [:]
    for segment in manifest?.keys.flatMap(\.segments) ?? [] where ivs[segment.uri] == nil {
      ivs[segment.uri] = segment.iv
    }
    return ivs
  }

  /// One entry per (new URI, key id): the same key can have several URIs
  /// (per rendition, or relative from different folders), and a later rewrite
  /// looks keys up by URI. A segment's IV is the playlist's, else the one
  /// keys.json gave it.
  private static func manifestEntries(
    _ mappings: [Mapping], playlists: [PackagePlaylist], previousIVs: [String: String]
  ) -> [KeysManifest.Key] {
    // Changed in place in the array: an entry taken out of a dictionary and
    // put back copied its segment list for every tag (quadratic with key rotation).
    var entries: [KeysManifest.Key] = []
    var index: [String: Int] = [:]
    for m in mappings {
      guard let id = m.key.keyID else { continue }
      let playlist = playlists[m.playlist]
      let slot = "\(id)\n\(m.newURI)"
      let at =
        index[slot]
        ?? {
          entries.append(
            KeysManifest.Key(
              uri: m.newURI, previousURI: m.oldURI, keyID: id,
              keyFile: m.key.bytes == nil ? m.key.manifestKeyFile ?? keyFile(id) : keyFile(id),
              renditions: [], periods: [], segments: []))
          index[slot] = entries.count - 1
          return entries.count - 1
        }()
      // The master playlist is not a rendition; its session keys cover no segment.
      guard m.tag.kind == .key else { continue }
      if !entries[at].renditions.contains(playlist.rendition) { entries[at].renditions.append(playlist.rendition) }
      if !entries[at].periods.contains(m.period) { entries[at].periods.append(m.period) }
      let covered = playlist.isIFramesOnly ? [] : playlist.scopes[m.tagIndex]
      entries[at].segments += covered.map { segment in
        let inPackage = URIReference.scheme(of: segment.uri) == nil && !segment.uri.hasPrefix("/")
        let uri = inPackage ? playlist.packagePath(ofRelative: segment.uri) ?? segment.uri : segment.uri
        return KeysManifest.Segment(uri: uri, iv: segment.iv ?? previousIVs[uri], byteRange: segment.byteRange)
      }
    }
    for at in entries.indices {
      entries[at].renditions.sort()
      entries[at].periods.sort()
    }
    return entries
  }
}
