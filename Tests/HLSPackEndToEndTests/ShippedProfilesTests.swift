import Foundation
import HLSPackCore
import HLSPackTestSupport
import Testing

/// Every profile in Profiles/ runs on the shipped sample as a newcomer runs it
/// (inputs and paths from the profile, only `--output` and `--keys-dir`
/// changed), draws no warning beyond the low-variant one (the first command's
/// ladder.json none at all), and its package decodes in the ffmpeg CLI with the
/// keys it wrote: through the playlists' key files, through a `rewrite-keys`
/// copy when the URIs use an app's scheme, and with the key file and
/// `-decryption_key` for `cbcs`, whose skd:// URIs only an app resolves.
@Suite("Shipped profiles")
struct ShippedProfilesTests {
  static let projectRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let profilesFolder = projectRoot.appendingPathComponent("Profiles")

  static var profiles: [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: profilesFolder.path)) ?? []
    return names.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }.sorted()
  }

  /// The low-variant warning is expected of the feature examples: muxed 128
  /// kb/s audio alone comes near 265 kb/s. The README's first command, with
  /// ladder.json, must run clean.
  static let expectedWarning = "no variant has a BANDWIDTH at or below"
  static let runsClean = ["ladder.json"]

  /// The profile's `encryption.keys_dir`, if it keeps its keys out of the asset.
  static func keysDir(_ name: String) throws -> String? {
    let profile = try JSONSerialization.jsonObject(with: Data(contentsOf: profilesFolder.appendingPathComponent(name)))
    return ((profile as? [String: Any])?["encryption"] as? [String: Any])?["keys_dir"] as? String
  }

  /// Encodes the shipped profile `name` as a newcomer does, only `--output`
  /// and `--keys-dir` in `scratch` (a keys folder goes there too, not into the
  /// checkout); the run, the asset and the folder of its keys.
  static func encode(_ name: String, in scratch: URL) throws -> (run: CommandResult, asset: URL, keys: URL) {
    let output = scratch.appendingPathComponent("out")
    let keysDir = try keysDir(name).map { _ in scratch.appendingPathComponent("keys") }
    let run = try Command.run(
      try Fixtures.executable(),
      [
        "encode", "--profile", profilesFolder.appendingPathComponent(name).path, "--output", output.path,
        "--progress", "none",
      ] + (keysDir.map { ["--keys-dir", $0.path] } ?? []))
    let asset = output.appendingPathComponent("sample")
    return (run, asset, keysDir?.appendingPathComponent("sample") ?? asset)
  }

  /// rewrite-keys finds keys in the package: a keys folder kept out of the
  /// asset is merged into a copy of it, as the README shows.
  static func copy(_ asset: URL, withKeysFrom keys: URL, to copy: URL) throws -> URL {
    try FileManager.default.copyItem(at: asset, to: copy)
    if keys != asset {
      for item in try FileManager.default.contentsOfDirectory(atPath: keys.path) {
        try FileManager.default.copyItem(at: keys.appendingPathComponent(item), to: copy.appendingPathComponent(item))
      }
    }
    return copy
  }

  @Test func theExamplesAreAllThere() {
    #expect(
      Self.profiles == [
        "alternate-renditions.json", "copy-app-keys.json", "fairplay.json", "fmp4-hevc.json", "ladder.json",
      ])
  }

  @Test(arguments: profiles)
  func runsWithoutSurprisesAndDecodes(_ name: String) throws {
    let scratch = try ScratchFolder.make("shipped-\(name)")
    let (run, asset, keys) = try Self.encode(name, in: scratch)
    try #require(run.status == 0, "\(name): \(run.stderr)")
    let warnings = run.stderr.split(separator: "\n").filter {
      $0.contains("warning") && (Self.runsClean.contains(name) || !$0.contains(Self.expectedWarning))
    }
    #expect(warnings.isEmpty, "\(name): \(warnings)")

    let master = try String(contentsOf: asset.appendingPathComponent("master.m3u8"), encoding: .utf8)
    try expectNoVariantIsARendition(asset)
    if master.contains("skd://") {
      try expectCBCSRenditionsDecode(asset, keys: keys, master: master)
    } else if try mediaPlaylistsText(asset).contains("myapp-key://") {
      let withKeys = try Self.copy(asset, withKeysFrom: keys, to: scratch.appendingPathComponent("with-keys"))
      let rewritten = scratch.appendingPathComponent("rewritten")
      let rewrite = try Command.run(
        try Fixtures.executable(), ["rewrite-keys", withKeys.path, "--uri", "{key_file}", "--output", rewritten.path])
      try #require(rewrite.status == 0, "\(name): \(rewrite.stderr)")
      try expectDecodes(
        ["-allowed_extensions", "ALL", "-i", rewritten.appendingPathComponent("master.m3u8").path], name)
    } else {
      try expectDecodes(["-allowed_extensions", "ALL", "-i", asset.appendingPathComponent("master.m3u8").path], name)
    }
  }

  /// An audio-only variant whose URI is an EXT-X-MEDIA rendition's (as
  /// `audio_only_variants` writes it) makes VLC 3.0 put the renditions among the
  /// video variants: it played 0-4 s without picture, then no sound. The
  /// examples leave those variants out (docs/players.md).
  private func expectNoVariantIsARendition(_ asset: URL) throws {
    let master = try PlaylistReader(contentsOf: asset.appendingPathComponent("master.m3u8"))
    let renditions = Set(master.values(of: "#EXT-X-MEDIA").compactMap { PlaylistReader.attributes($0)["URI"] })
    let shared = master.variants.map(\.uri).filter(renditions.contains)
    #expect(shared.isEmpty, "variants that are renditions: \(shared)")
  }

  private func mediaPlaylistsText(_ asset: URL) throws -> String {
    try PackageDiff.mediaPlaylists(in: asset).map {
      try String(contentsOf: asset.appendingPathComponent($0), encoding: .utf8)
    }
    .joined()
  }

  /// Each video rendition as one file (init segment, then the fragments), decrypted by FFmpeg's mov demuxer.
  private func expectCBCSRenditionsDecode(_ asset: URL, keys keysFolder: URL, master: String) throws {
    let manifest = try JSONSerialization.jsonObject(
      with: Data(contentsOf: keysFolder.appendingPathComponent("keys.json")))
    let keys = (manifest as? [String: Any])?["keys"] as? [[String: Any]] ?? []
    let renditions = master.split(separator: "\n").filter { $0.hasSuffix("/index.m3u8") }.map {
      $0.dropLast("/index.m3u8".count)
    }
    try #require(!renditions.isEmpty)
    for rendition in renditions {
      let entry = keys.first { ($0["renditions"] as? [String])?.contains(String(rendition)) == true }
      let keyFile = try #require(entry?["key_file"] as? String, "no key for \(rendition) in keys.json")
      let key = try Data(contentsOf: keysFolder.appendingPathComponent(keyFile))
      let folder = asset.appendingPathComponent(String(rendition))
      let segments = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".m4s") }
        .sorted()
      var whole = try Data(contentsOf: folder.appendingPathComponent("init.mp4"))
      for segment in segments { whole += try Data(contentsOf: folder.appendingPathComponent(segment)) }
      let file = folder.appendingPathComponent("whole.mp4")
      try whole.write(to: file)
      // Read as a stream: FFmpeg 5.1 mis-reads the subsample maps of a seekable file with several fragments.
      try expectDecodes(
        ["-seekable", "0", "-decryption_key", Hex.encode([UInt8](key)), "-i", file.path], "\(rendition)")
    }
  }

  private func expectDecodes(_ input: [String], _ what: String) throws {
    let result = try Command.run(
      "ffmpeg", ["-nostdin", "-v", "error"] + input + ["-map", "0:v", "-map", "0:a?", "-f", "null", "-"])
    #expect(result.status == 0 && result.stderr.isEmpty, "\(what): \(result.stderr)")
  }
}
