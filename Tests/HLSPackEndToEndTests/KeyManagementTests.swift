import Foundation
import HLSPackCore
import HLSPackTestSupport
import Testing

/// Key sources, URI templates, rotation, IV modes and reproducible fixtures,
/// checked on real packages with the openssl and ffmpeg command-line tools.
@Suite("Keys for app teams")
struct KeyManagementTests {
  func keyFiles(_ package: EncodedPackage) throws -> [String: [UInt8]] {
    let folder = package.folder.appendingPathComponent("keys")
    var keys: [String: [UInt8]] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".key") {
      let path = folder.appendingPathComponent(name).path
      let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
      #expect(mode.map { $0 & 0o777 } == 0o600, "\(name) is not 0600")
      keys[String(name.dropLast(4))] = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
    return keys
  }

  /// Decrypts a segment with the openssl CLI; nil when the key or IV is wrong.
  func decrypt(_ file: URL, key: [UInt8], iv: String) throws -> [UInt8]? {
    let result = try Command.run(
      "openssl", ["enc", "-d", "-aes-128-cbc", "-K", Hex.encode(key), "-iv", iv, "-in", file.path])
    guard result.status == 0, let ts = try? TransportStream(Array(result.stdout)), ts.pmtPID != nil else { return nil }
    return Array(result.stdout)
  }

  @Test func rotationGivesEachPeriodItsOwnKeyInEveryRendition() throws {
    let package = try EncodedPackage.with(
      encryption: #"{"method": "aes-128", "rotate_every": 2, "key_uri": "skd://{key_id}"}"#)
    let keys = try keyFiles(package)
    #expect(keys.count == 2, "4 one-second segments, a key every 2")
    for variant in package.master.variants {
      let playlist = try package.playlist(variant.uri)
      let lines = playlist.lines
      for (k, segment) in playlist.segments.enumerated() {
        let keyID = try #require(segment.keyAttributes?["URI"]).replacingOccurrences(of: "skd://", with: "")
        let iv = try #require(segment.keyAttributes?["IV"]).replacingOccurrences(of: "0x", with: "")
        let file = package.folder.appendingPathComponent(variant.uri).deletingLastPathComponent()
          .appendingPathComponent(segment.uri)
        for (id, key) in keys {
          let opened = try decrypt(file, key: key, iv: iv) != nil
          // Segment k opens with its period's key only.
          #expect(opened == (id == keyID), "\(variant.uri) segment \(k) with key \(id)")
        }
        // The key tag right before a period's first segment names the new key.
        let uriLine = try #require(lines.firstIndex(of: segment.uri))
        #expect(lines[uriLine - 2].hasPrefix("#EXT-X-KEY:") && lines[uriLine - 2].contains("skd://\(keyID)"))
      }
      let ids = playlist.segments.compactMap { $0.keyAttributes?["URI"] }
      #expect(ids[0] == ids[1] && ids[1] != ids[2] && ids[2] == ids[3])
    }
  }

  /// write_key_info: one FFmpeg key-info file per rendition and key period,
  /// naming that period's URI and published key file, also after a clear lead.
  @Test func keyInfoFilesCoverEveryKeyPeriodAfterAClearLead() throws {
    let package = try EncodedPackage.with(
      encryption: #"{"method": "aes-128", "clear_lead_segments": 1, "rotate_every": 2, "write_key_info": true}"#)
    let keys = try keyFiles(package)
    #expect(keys.count == 2, "segment 0 clear, segments 1-2 and 3 in two periods")
    for variant in package.master.variants {
      let rendition = variant.uri.split(separator: "/")[0]
      var uris: [String] = []
      for segment in try package.playlist(variant.uri).segments {
        if let uri = segment.keyAttributes?["URI"], uris.last != uri { uris.append(uri) }
      }
      #expect(uris.count == 2)
      for (period, uri) in uris.enumerated() {
        let file = package.folder.appendingPathComponent("keys/\(rendition).\(period).keyinfo")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.first == uri, "\(file.lastPathComponent)")
        let keyID = String(uri.split(separator: "/").last?.dropLast(4) ?? "")
        #expect(lines.count >= 2 && lines[1].hasSuffix("/keys/\(keyID).key"), "\(file.lastPathComponent)")
      }
    }
  }

  @Test(arguments: [
    ("{key_file}", "../keys/"),
    ("https://keys.example.com/{key_id}", "https://keys.example.com/"),
    ("myapp-key://{asset}/{rendition}", "myapp-key://clip/"),
    ("skd://{key_id}", "skd://"),
  ])
  func keyURITemplatesAreRenderedPerRendition(template: String, prefix: String) throws {
    let package = try EncodedPackage.with(encryption: #"{"method": "aes-128", "key_uri": "\#(template)"}"#)
    let keys = try keyFiles(package)
    #expect(keys.count == 1)
    let keyID = try #require(keys.keys.first)
    for variant in package.master.variants {
      let rendition = variant.uri.split(separator: "/")[0]
      let expected =
        template
        .replacingOccurrences(of: "{key_file}", with: "../keys/\(keyID).key")
        .replacingOccurrences(of: "{key_id}", with: keyID)
        .replacingOccurrences(of: "{asset}", with: "clip")
        .replacingOccurrences(of: "{rendition}", with: String(rendition))
      #expect(expected.hasPrefix(prefix))
      let uris = Set(try package.playlist(variant.uri).segments.compactMap { $0.keyAttributes?["URI"] })
      #expect(uris == [expected])
    }
    let manifest = try JSONDecoder().decode(
      KeysManifest.self, from: Data(contentsOf: package.folder.appendingPathComponent("keys.json")))
    #expect(manifest.keys.allSatisfy { $0.key == nil && $0.keyID == keyID && $0.keyFile == "keys/\(keyID).key" })
    #expect(manifest.keys.flatMap(\.segments).count == 8)
  }

  @Test func givenKeysAndKeyInfoFilesAreUsed() throws {
    let key = "000102030405060708090a0b0c0d0e0f"
    let scratch = try ScratchFolder.make()
    try Data(try #require(Hex.decode(key))).write(to: scratch.appendingPathComponent("k.bin"))
    try Data("https://example.com/k1\nk.bin\n00000000000000000000000000000007\n".utf8)
      .write(to: scratch.appendingPathComponent("ffmpeg.keyinfo"))
    let sources = [
      #""key_hex": "\#(key)""#,
      #""key_file": "\#(scratch.path)/k.bin""#,
      #""key_info": "\#(scratch.path)/ffmpeg.keyinfo""#,
    ]
    for source in sources {
      let package = try EncodedPackage.with(encryption: #"{"method": "aes-128", \#(source)}"#)
      let variant = try #require(package.master.variants.first)
      let segment = try #require(try package.playlist(variant.uri).segments.first)
      let file = package.folder.appendingPathComponent(variant.uri).deletingLastPathComponent().appendingPathComponent(
        segment.uri)
      let iv = try #require(segment.keyAttributes?["IV"]).replacingOccurrences(of: "0x", with: "")
      #expect(try decrypt(file, key: try #require(Hex.decode(key)), iv: iv) != nil, "\(source)")
      if source.contains("key_info") {
        #expect(segment.keyAttributes?["URI"] == "https://example.com/k1")
        #expect(iv == "00000000000000000000000000000007")
      }
    }
  }

  @Test func keyFromTheEnvironmentNeverAppearsInOutput() throws {
    let scratch = try ScratchFolder.make()
    let profile = try Fixtures.profile(
      in: scratch, encryption: #"{"method": "aes-128", "key_env": "HLSPACK_TEST_KEY"}"#)
    let key = "2b7e151628aed2a6abf7158809cf4f3c"
    var environment = ProcessInfo.processInfo.environment
    environment["HLSPACK_TEST_KEY"] = key
    let output = scratch.appendingPathComponent("out")
    let result = try Command.run(
      try Fixtures.executable(),
      ["encode", "--profile", profile.path, "--output", output.path, "--progress", "json", try Fixtures.clip().path],
      environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(!result.text.lowercased().contains(key) && !result.stderr.lowercased().contains(key))
    for name in ["report.json", "keys.json", "master.m3u8", "high/index.m3u8"] {
      let text = try String(contentsOf: output.appendingPathComponent("clip/\(name)"), encoding: .utf8)
      #expect(!text.lowercased().contains(key), "key bytes in \(name)")
    }
    let missing = try Command.run(
      try Fixtures.executable(),
      ["encode", "--profile", profile.path, "--output", output.path, "--force", try Fixtures.clip().path],
      environment: ProcessInfo.processInfo.environment.filter { $0.key != "HLSPACK_TEST_KEY" })
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("$.encryption.key_env: environment variable HLSPACK_TEST_KEY is not set"))
  }

  @Test func exportedKeysAreInAPrivateManifest() throws {
    let scratch = try ScratchFolder.make()
    let profile = try Fixtures.profile(in: scratch)
    let output = scratch.appendingPathComponent("out")
    let result = try Command.run(
      try Fixtures.executable(),
      ["encode", "--profile", profile.path, "--output", output.path, "--export-keys", try Fixtures.clip().path])
    #expect(result.status == 0)
    let path = output.appendingPathComponent("clip/keys.json").path
    #expect(
      (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o600)
    let manifest = try JSONDecoder().decode(KeysManifest.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    let entry = try #require(manifest.keys.first)
    let keyFile = Array(try Data(contentsOf: output.appendingPathComponent("clip/\(entry.keyFile)")))
    #expect(entry.key == Hex.encode(keyFile))
  }

  @Test func sameSeedGivesIdenticalPackagesAndAnotherSeedOtherKeys() throws {
    let scratch = try ScratchFolder.make()
    let profile = try Fixtures.profile(
      in: scratch, encryption: #"{"method": "aes-128", "rotate_every": 2, "key_uri": "skd://{key_id}"}"#)
    func encode(_ seed: String, into name: String) throws -> [String: String] {
      let output = scratch.appendingPathComponent(name)
      let result = try Command.run(
        try Fixtures.executable(),
        ["encode", "--profile", profile.path, "--output", output.path, "--seed", seed, try Fixtures.clip().path])
      #expect(result.status == 0, "\(result.stderr)")
      let asset = output.appendingPathComponent("clip")
      var hashes: [String: String] = [:]
      let files = FileManager.default.enumerator(atPath: asset.path)?.allObjects as? [String] ?? []
      for file in files where !file.hasSuffix("/") {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: asset.appendingPathComponent(file).path, isDirectory: &isFolder),
          !isFolder.boolValue
        else { continue }
        let sha = try Command.run("sha256sum", [asset.appendingPathComponent(file).path]).text.prefix(64)
        hashes[file] = String(sha)
      }
      return hashes
    }
    let first = try encode("fixture", into: "a")
    let second = try encode("fixture", into: "b")
    let other = try encode("other", into: "c")
    #expect(first.count == 18, "8 segments, 5 playlists, 2 keys, keys.json, report.json, provenance.json")
    #expect(first == second)
    let keyNames = { (h: [String: String]) in Set(h.keys.filter { $0.hasSuffix(".key") }) }
    #expect(keyNames(first).isDisjoint(with: keyNames(other)))
  }

  @Test func keyformatRaisesTheVersionAndIsWrittenOnEveryKeyTag() throws {
    let package = try EncodedPackage.with(
      encryption: #"{"method": "aes-128", "keyformat": "identity", "keyformat_versions": "1"}"#)
    let variant = try #require(package.master.variants.first)
    let playlist = try package.playlist(variant.uri)
    #expect(playlist.values(of: "#EXT-X-VERSION") == ["5"])
    #expect(
      playlist.values(of: "#EXT-X-KEY").allSatisfy { $0.contains(#"KEYFORMAT="identity",KEYFORMATVERSIONS="1""#) })
    let decode = try Command.run(
      "ffmpeg",
      [
        "-v", "error", "-allowed_extensions", "ALL", "-i", package.folder.appendingPathComponent(variant.uri).path,
        "-f", "null", "-",
      ])
    #expect(decode.status == 0 && decode.stderr.isEmpty)
  }
}
