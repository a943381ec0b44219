import Foundation
import HLSPack
import HLSPackCore
import HLSPackTestSupport
import Testing

/// fixtures.json's `keys` are usable as they are: `hlspack verify DIR/<master>
/// --key NAME=HEX` for each of them finds every key of the FairPlay
/// (skd://) and custom-scheme fixtures, and a key file's name is its path
/// relative to DIR, holding those bytes. Made with --keep-source, which keeps
/// the synthesised source (bench/fixture makes clear twins from it).
@Suite("hlspack fixture: the database's keys")
struct FixtureKeysTests {
  static let ids = ["fairplay-cbcs-fmp4", "custom-scheme", "session-key", "aes128-fmp4-encrypted-init"]

  static let made: Result<(URL, FixtureDatabase), Error> = Result {
    let folder = try ScratchFolder.make("fixture-keys").appendingPathComponent("fixtures")
    let run = try FixtureCommandTests.hlspack(
      ["fixture", "make", "--output", folder.path, "--duration", "2", "--only", ids.joined(separator: ","), "--keep-source"])
    guard run.status == 0 else { throw FixtureError("fixture make: \(run.stderr)") }
    return (folder, try FixtureDatabase.read(from: folder.appendingPathComponent("fixtures.json")))
  }

  @Test(arguments: ["fairplay-cbcs-fmp4", "custom-scheme"])
  func verifyFindsEveryKeyFromTheDatabase(id: String) throws {
    let (folder, database) = try Self.made.get()
    let fixture = try #require(database.fixtures.first { $0.id == id })
    #expect(!fixture.keys.isEmpty && fixture.keys.keys.allSatisfy { URIReference.scheme(of: $0) != nil }, "\(fixture.keys)")
    let keys = fixture.keys.sorted { $0.key < $1.key }.flatMap { ["--key", "\($0.key)=\($0.value)"] }
    let run = try FixtureCommandTests.hlspack(
      ["verify", folder.appendingPathComponent(fixture.master).path, "--json"] + keys)
    #expect(run.status == 0, "\(run.text) \(run.stderr)")
    #expect(!run.text.contains("key.unavailable") && !run.text.contains("segment.not-verifiable"), "\(run.text)")
  }

  @Test func aKeyFileIsNamedByItsPathFromTheDatabasesFolder() throws {
    let (folder, database) = try Self.made.get()
    let fixture = try #require(database.fixtures.first { $0.id == "session-key" })
    #expect(fixture.keys.count == 1, "one key file, listed once: \(fixture.keys)")
    for (name, hex) in fixture.keys {
      #expect(name.hasPrefix("session-key/labelled/keys/") && name.hasSuffix(".key"), "\(name)")
      let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
      #expect(Hex.encode(Array(bytes)) == hex, "\(name)")
    }
  }

  @Test func keepSourceKeepsTheSynthesisedSource() throws {
    let (folder, database) = try Self.made.get()
    let probe = try Command.run(
      "ffprobe",
      ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames", "-of",
       "csv=p=0", folder.appendingPathComponent("source/labelled.mkv").path])
    #expect(probe.text.split(separator: "\n").first == "\(database.fps * 2)", "\(probe.text) \(probe.stderr)")
  }
}
