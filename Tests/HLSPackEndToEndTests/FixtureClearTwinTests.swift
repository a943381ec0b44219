import Foundation
import HLSPack
import HLSPackCore
import HLSPackTestSupport
import Testing

/// The fixtures whose keys FFmpeg cannot fetch (skd:// for FairPlay, an
/// app's own scheme) play bit-exactly like their clear twin once `hlspack
/// rewrite-keys --uri {key_file}` points a copy at key files: Debian's
/// FFmpeg decodes the copy through its HLS demuxer (for SAMPLE-AES fMP4 it
/// hands the key to the mov demuxer, which decrypts cbcs), and every video
/// and audio frame hashes as the twin's does. The twin is the fixture's
/// generated profile without `encryption`, encoded from the kept source as
/// bench/fixture-twins does for the whole matrix. The encrypted-init fixture
/// has key files already: the rewrite leaves them, and FFmpeg decrypts its
/// init segment with the key tag before its EXT-X-MAP.
@Suite("hlspack fixture: clear twins of the FairPlay and custom-scheme fixtures")
struct FixtureClearTwinTests {
  @Test(arguments: ["fairplay-cbcs-fmp4", "custom-scheme", "aes128-fmp4-encrypted-init"])
  func keysRewrittenToKeyFilesDecodeLikeTheClearTwin(id: String) throws {
    let (folder, database) = try FixtureKeysTests.made.get()
    let fixture = try #require(database.fixtures.first { $0.id == id })
    let work = try ScratchFolder.make("fixture-twin-\(id)")
    let asset = folder.appendingPathComponent(fixture.master).deletingLastPathComponent()
    let keyFiles = work.appendingPathComponent("key-files/\(asset.lastPathComponent)")
    let rewrite = try FixtureCommandTests.hlspack(
      ["rewrite-keys", asset.path, "--uri", "{key_file}", "--output", keyFiles.path])
    try #require(rewrite.status == 0, "\(rewrite.stderr)")

    var profile = try #require(
      JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(fixture.profile)))
        as? [String: Any])
    #expect(profile.removeValue(forKey: "encryption") != nil)
    let twinProfile = work.appendingPathComponent("twin.json")
    try JSONSerialization.data(withJSONObject: profile).write(to: twinProfile)
    let twin = work.appendingPathComponent("twin")
    let encode = try FixtureCommandTests.hlspack(
      ["encode", "--profile", twinProfile.path, "--output", twin.path, "--reproducible", "--progress", "none",
       folder.appendingPathComponent("source/labelled.mkv").path])
    try #require(encode.status == 0, "\(encode.stderr)")

    let playlist = "360p/index.m3u8"
    let ours = try Self.frameHashes(keyFiles.appendingPathComponent(playlist))
    let theirs = try Self.frameHashes(twin.appendingPathComponent("\(asset.lastPathComponent)/\(playlist)"))
    #expect(ours.keys.sorted() == ["0", "1"], "a video and an audio stream: \(ours.keys.sorted())")
    #expect(ours["0"]?.count == fixture.frames)
    #expect(ours == theirs, "frames differ from the clear twin's")
  }

  /// `ffmpeg -f framemd5`'s hashes per stream index, in decoding order.
  /// `inputOptions` come before `-i` (an HLS playlist takes `-allowed_extensions ALL`);
  /// `decodeErrors` lets the decoder complain (of a defect the caller allows for).
  static func frameHashes(
    _ playlist: URL, inputOptions: [String] = ["-allowed_extensions", "ALL"], decodeErrors: Bool = false
  ) throws -> [String: [String]] {
    let run = try Command.run(
      "ffmpeg",
      ["-nostdin", "-v", "error"] + inputOptions
        + ["-i", playlist.path, "-map", "0:v", "-map", "0:a", "-fps_mode", "passthrough", "-f", "framemd5", "-"])
    guard run.status == 0, run.stderr.isEmpty || decodeErrors else {
      throw FixtureError("ffmpeg \(playlist.path): exit \(run.status): \(run.stderr)")
    }
    var hashes: [String: [String]] = [:]
    for line in run.text.split(separator: "\n") where !line.hasPrefix("#") {
      let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      guard let stream = fields.first, let hash = fields.last, fields.count == 6 else { continue }
      hashes[stream, default: []].append(hash)
    }
    return hashes
  }
}

