import Foundation
import HLSPackTestSupport
import Testing

/// `encode --verify` checks the staged asset before publishing it.
@Suite("hlspack encode --verify")
struct EncodeVerifyTests {
  /// Encodes the clip (copied, 2 s AES-128 TS segments) with `encryption`;
  /// the run, and the asset folder it would publish.
  func encode(encryption: String, _ options: [String]) throws -> (run: CommandResult, asset: URL, scratch: URL) {
    let scratch = try ScratchFolder.make("encodeverify")
    let profile = scratch.appendingPathComponent("profile.json")
    try Data(
      """
      {"version": 1, "segment": {"duration": 2, "container": "ts"}, \(VerifyTests.copied), "encryption": \(encryption)}
      """.utf8
    ).write(to: profile)
    let output = scratch.appendingPathComponent("out")
    let run = try Command.run(
      try Fixtures.executable(),
      ["encode", "--profile", profile.path, "--output", output.path, "--progress", "none"] + options
        + [try Fixtures.clip().path])
    return (run, output.appendingPathComponent("clip"), scratch)
  }

  @Test func aVerifiedAssetIsPublished() throws {
    let (run, asset, _) = try encode(encryption: #"{"method": "aes-128"}"#, ["--verify"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: asset.appendingPathComponent("master.m3u8").path))
    #expect(!run.stderr.contains("verify"), "\(run.stderr)")
  }

  /// Keys kept out of the asset under an app-scheme URI: verified with the keys.json just written.
  @Test func anAppSchemeKeyIsVerifiedWithTheNewKeys() throws {
    let keys = try ScratchFolder.make("encodeverifykeys").appendingPathComponent("keys")
    let (run, asset, _) = try encode(
      encryption: #"{"method": "aes-128", "key_uri": "myapp-key://{key_id}"}"#,
      ["--verify", "--keys-dir", keys.path])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: asset.appendingPathComponent("master.m3u8").path))
    #expect(!run.stderr.contains("key.unavailable"), "\(run.stderr)")
  }

  /// A key URI that leads out of the package publishes without --verify, and
  /// is refused with it: exit 1, the rule named, nothing published.
  @Test func aMustFixFindingRefusesPublication() throws {
    let encryption = #"{"method": "aes-128", "key_uri": "../../elsewhere/{key_id}.key"}"#
    let unchecked = try encode(encryption: encryption, [])
    #expect(unchecked.run.status == 0, "\(unchecked.run.stderr)")

    let (run, asset, scratch) = try encode(encryption: encryption, ["--verify"])
    #expect(run.status == 1)
    #expect(run.stderr.contains("package.outside-boundary"), "\(run.stderr)")
    #expect(run.stderr.contains("nothing was published"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: asset.path))
    let left = try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted()
    #expect(left == ["profile.json"], "\(left)")
  }

  /// `batch --verify`: a clean catalog is published; one whose key URIs lead
  /// out of the package fails asset by asset (exit 1) and publishes nothing.
  @Test func batchVerifiesEachAsset() throws {
    let batch = BatchTests()
    let clean = try batch.catalog(1, "batchverifyclean")
    let published = try Command.run(try Fixtures.executable(), batch.arguments(clean, ["--verify"]))
    #expect(published.status == 0, "\(published.stderr)")
    #expect(try batch.statuses(batch.report(clean)) == ["title-01": "published"])

    let refused = try batch.catalog(1, "batchverifyrefused")
    try Data(
      #"{"version": 1, "segment": {"duration": 2}, "video": [{"name": "src", "codec": "copy"}], "audio": {"codec": "copy"}, "encryption": {"method": "aes-128", "key_uri": "../../elsewhere/{key_id}.key"}}"#
        .utf8
    ).write(to: refused.profile)
    let run = try Command.run(try Fixtures.executable(), batch.arguments(refused, ["--verify"]))
    #expect(run.status == 1)
    #expect(run.stderr.contains("package.outside-boundary"), "\(run.stderr)")
    #expect(try batch.statuses(batch.report(refused)) == ["title-01": "failed"])
    #expect(!FileManager.default.fileExists(atPath: refused.output.appendingPathComponent("title-01").path))
  }
}
