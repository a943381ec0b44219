import Foundation
import HLSPackCore
import HLSPackTestSupport
import Testing

/// `encryption.keys_dir` / `--keys-dir`: keys kept out of the asset, in
/// `DIR/<asset>/`, staged and published with it, owner-only whatever the umask.
@Suite("Keys folder")
struct KeysFolderTests {
  /// A copy profile (no encoding, so each run takes a moment) with the
  /// given encryption; the one-rung ladder draws no low-variant warning.
  static func profile(in folder: URL, encryption: String) throws -> URL {
    let url = folder.appendingPathComponent("copy.json")
    try Data(
      #"{"version": 1, "low_variant_bandwidth": 100000000, "segment": {"duration": 1}, "video": [{"name": "main", "codec": "copy"}], "audio": {"codec": "copy"}, "encryption": \#(encryption)}"#
        .utf8
    ).write(to: url)
    return url
  }

  /// Runs `hlspack encode` through bash with umask 000, so that only the
  /// modes hlspack sets itself keep others out.
  static func encode(_ arguments: [String], in scratch: URL) throws -> CommandResult {
    try Fixtures.hlspack(
      after: #"umask 000 && cd "$1" && shift"#, [scratch.path, "encode", "--progress", "none"] + arguments)
  }

  static let appKeys = #"{"method": "aes-128", "key_uri": "myapp-key://{asset}/{key_id}", "write_key_info": true}"#

  func mode(_ url: URL) throws -> Int {
    try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) & 0o777
  }

  func files(under folder: URL) -> [String] {
    (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
  }

  @Test func keysGoToTheKeysFolderOwnerOnlyAndNotIntoTheAsset() throws {
    let scratch = try ScratchFolder.make()
    let profile = try Self.profile(in: scratch, encryption: Self.appKeys)
    let run = try Self.encode(
      ["--profile", profile.path, "--output", "out", "--keys-dir", "keys", try Fixtures.clip().path], in: scratch)
    try #require(run.status == 0, "\(run.stderr)")
    #expect(!run.stderr.contains("warning"), "\(run.stderr)")
    let asset = scratch.appendingPathComponent("out/clip")
    let keysFolder = scratch.appendingPathComponent("keys/clip")
    #expect(!files(under: asset).contains { $0.hasPrefix("keys") || $0.hasSuffix(".key") || $0.hasSuffix(".keyinfo") })

    let keyFiles = files(under: keysFolder.appendingPathComponent("keys")).filter { $0.hasSuffix(".key") }
    try #require(keyFiles.count == 1)
    let keyFile = keysFolder.appendingPathComponent("keys/\(keyFiles[0])")
    #expect(try mode(keyFile) == 0o600)
    for folder in [keysFolder, keysFolder.appendingPathComponent("keys")] {
      #expect(try mode(folder) == 0o700, "\(folder.path)")
    }
    #expect(
      files(under: scratch.appendingPathComponent("keys")).allSatisfy { !$0.hasPrefix(".") }, "no staging folder left")

    // keys.json names the key file relative to itself; the key-info file names the published key.
    let manifest = try JSONDecoder().decode(
      KeysManifest.self, from: Data(contentsOf: keysFolder.appendingPathComponent("keys.json")))
    #expect(manifest.keys.map(\.keyFile) == ["keys/\(keyFiles[0])"])
    let keyInfo = try String(contentsOf: keysFolder.appendingPathComponent("keys/main.0.keyinfo"), encoding: .utf8)
    #expect(keyInfo.split(separator: "\n").dropFirst().first.map(String.init) == keyFile.path)

    // The key decrypts the asset's first segment.
    let playlist = try PlaylistReader(contentsOf: asset.appendingPathComponent("main/index.m3u8"))
    let first = try #require(playlist.segments.first)
    let iv = try #require(first.keyAttributes?["IV"])
    let decrypted = try Command.run(
      "openssl",
      [
        "enc", "-d", "-aes-128-cbc", "-K", Hex.encode([UInt8](try Data(contentsOf: keyFile))), "-iv",
        String(iv.dropFirst(2)),
        "-in", asset.appendingPathComponent("main/\(first.uri)").path,
      ])
    #expect(decrypted.status == 0 && decrypted.stdout.first == 0x47, "a TS packet after decryption")
  }

  @Test func theProfilesKeysDirIsRelativeToTheProfile() throws {
    let scratch = try ScratchFolder.make()
    let profiles = scratch.appendingPathComponent("profiles")
    try FileManager.default.createDirectory(at: profiles, withIntermediateDirectories: true)
    let profile = try Self.profile(
      in: profiles, encryption: #"{"method": "aes-128", "key_uri": "skd://{key_id}", "keys_dir": "../private"}"#)
    let run = try Self.encode(["--profile", profile.path, "--output", "out", try Fixtures.clip().path], in: scratch)
    try #require(run.status == 0, "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("private/clip/keys.json").path))
    #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("out/clip/keys.json").path))
  }

  @Test func aKeysFolderIsReplacedOnlyWithForceAndTogetherWithTheAsset() throws {
    let scratch = try ScratchFolder.make()
    let profile = try Self.profile(in: scratch, encryption: Self.appKeys)
    let arguments = ["--profile", profile.path, "--output", "out", "--keys-dir", "keys", try Fixtures.clip().path]
    let keys = scratch.appendingPathComponent("keys/clip/keys")
    try #require(try Self.encode(arguments, in: scratch).status == 0)
    let before = files(under: keys).filter { $0.hasSuffix(".key") }

    // The asset is gone, its keys are not: without --force nothing is replaced and no asset appears.
    try FileManager.default.removeItem(at: scratch.appendingPathComponent("out/clip"))
    let refused = try Self.encode(arguments, in: scratch)
    #expect(refused.status == 1 && refused.stderr.contains("keys/clip: already exists"), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("out/clip").path))
    #expect(files(under: keys).filter { $0.hasSuffix(".key") } == before)

    let forced = try Self.encode(["--force"] + arguments, in: scratch)
    try #require(forced.status == 0, "\(forced.stderr)")
    let after = files(under: keys).filter { $0.hasSuffix(".key") }
    #expect(
      after.count == before.count && Set(after).isDisjoint(with: before),
      "new keys replace the old: \(before) → \(after)")
    #expect(try mode(keys.deletingLastPathComponent()) == 0o700)
    #expect(
      files(under: scratch.appendingPathComponent("keys")).allSatisfy { !$0.hasPrefix(".") }, "no hidden folder left")
  }

  @Test func keyFileURIsAndKeysFoldersInsideAssetsAreRefused() throws {
    let scratch = try ScratchFolder.make()
    let clip = try Fixtures.clip().path
    let keyFileURIs = try Self.profile(in: scratch, encryption: #"{"method": "aes-128", "keys_dir": "keys"}"#)
    let inProfile = try Self.encode(["--profile", keyFileURIs.path, "--output", "out", clip], in: scratch)
    #expect(inProfile.status == 2 && inProfile.stderr.contains("$.encryption.keys_dir"), "\(inProfile.stderr)")

    let defaultURIs = try Self.profile(in: scratch, encryption: #"{"method": "aes-128"}"#)
    let onCommandLine = try Self.encode(
      ["--profile", defaultURIs.path, "--output", "out", "--keys-dir", "keys", clip], in: scratch)
    #expect(onCommandLine.status == 2 && onCommandLine.stderr.contains("--keys-dir"), "\(onCommandLine.stderr)")

    let appKeys = try Self.profile(in: scratch, encryption: Self.appKeys)
    for folder in ["out", "out/clip/private"] {
      let inside = try Self.encode(
        ["--profile", appKeys.path, "--output", "out", "--keys-dir", folder, clip], in: scratch)
      #expect(inside.status == 2 && inside.stderr.contains("outside the assets"), "\(folder): \(inside.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("out").path), "nothing was done")
  }

  /// Keys that sit inside an asset whose URIs do not point at them are
  /// published with it wherever the asset is synced.
  @Test func keysInsideAnAssetWithAbsoluteKeyURIsDrawAWarning() throws {
    let scratch = try ScratchFolder.make()
    let profile = try Self.profile(in: scratch, encryption: Self.appKeys)
    let run = try Self.encode(["--profile", profile.path, "--output", "out", try Fixtures.clip().path], in: scratch)
    #expect(run.status == 0 && run.stderr.contains("syncing the asset to a CDN publishes them"), "\(run.stderr)")
    let relative = try Self.profile(in: scratch, encryption: #"{"method": "aes-128"}"#)
    let clean = try Self.encode(
      ["--profile", relative.path, "--output", "out2", try Fixtures.clip().path], in: scratch)
    #expect(clean.status == 0 && !clean.stderr.contains("warning"), "\(clean.stderr)")
  }

  /// `hlspack batch` honours the profile's keys_dir as `encode` does.
  @Test func batchKeepsTheKeysInTheProfilesKeysFolder() throws {
    let scratch = try ScratchFolder.make()
    try FileManager.default.copyItem(at: try Fixtures.clip(), to: scratch.appendingPathComponent("title.mp4"))
    try Data(#"{"input": "title.mp4"}"#.utf8).write(to: scratch.appendingPathComponent("catalog.jsonl"))
    let profile = try Self.profile(
      in: scratch, encryption: #"{"method": "aes-128", "key_uri": "skd://{key_id}", "keys_dir": "keys"}"#)
    let run = try Command.run(
      try Fixtures.executable(),
      [
        "batch", "--manifest", scratch.appendingPathComponent("catalog.jsonl").path, "--profile", profile.path,
        "--output", scratch.appendingPathComponent("out").path,
      ])
    try #require(run.status == 0, "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("keys/title/keys.json").path))
    #expect(!files(under: scratch.appendingPathComponent("out/title")).contains { $0.hasPrefix("keys") })
  }

  /// The seed's labels name the asset, not its source: a run that replaces an
  /// asset made from another file of the same name gets the same keys, and says so.
  @Test func replacingAnAssetOfAnotherSourceUnderTheSameSeedWarns() throws {
    let scratch = try ScratchFolder.make()
    let profile = try Self.profile(in: scratch, encryption: #"{"method": "aes-128"}"#)
    var sources: [String] = []
    for folder in ["a", "b"] {
      let copy = scratch.appendingPathComponent("\(folder)/clip.mp4")
      try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
      try FileManager.default.copyItem(at: try Fixtures.clip(), to: copy)
      sources.append(copy.path)
    }
    let seeded = ["--profile", profile.path, "--output", "out", "--force", "--seed", "fixture"]
    let keyIDs = { () throws -> [String] in
      try JSONDecoder().decode(
        AssetReport.self, from: Data(contentsOf: scratch.appendingPathComponent("out/clip/report.json"))
      )
      .keys.map(\.keyID)
    }
    try #require(try Self.encode(seeded + [sources[0]], in: scratch).status == 0)
    let first = try keyIDs()
    let again = try Self.encode(seeded + [sources[0]], in: scratch)
    #expect(again.status == 0 && !again.stderr.contains("warning"), "the same source again: \(again.stderr)")
    let other = try Self.encode(seeded + [sources[1]], in: scratch)
    #expect(other.status == 0 && other.stderr.contains("replaces the asset made from \(sources[0])"), "\(other.stderr)")
    #expect(try keyIDs() == first, "the same keys, as the warning says")
  }
}
