import Foundation
import Testing

@testable import HLSPackCore

/// `"codec": "av1"`: SVT-AV1's preset number, fMP4 only, clear or AES-128;
/// what SVT-AV1 does not take is refused by its JSON path.
@Suite struct AV1ProfileTests {
  static func load(
    container: String = "fmp4", method: String = "aes-128", rung changes: ProfileJSON.Changes = [:]
  ) throws -> Profile {
    let json = ProfileJSON.profile(
      [
        "segment": #"{"duration": 2, "container": "\#(container)"}"#,
        "encryption": #"{"method": "\#(method)"}"#,
      ], rung: changes)
    return try ProfileLoader.load(
      data: Data(json.utf8), file: "test.json", baseDirectory: URL(fileURLWithPath: "/profiles"))
  }

  static func refusal(_ load: () throws -> Profile) -> ProfileError? {
    do {
      _ = try load()
      return nil
    } catch {
      return error as? ProfileError
    }
  }

  @Test func anAV1RungInFMP4Loads() throws {
    let profile = try Self.load(rung: ["codec": #""av1""#, "preset": "12", "profile": #""main""#])
    #expect(profile.video[1].codec == .av1)
    #expect(profile.video[1].preset == "12")
    #expect(profile.video[1].profile == "main")
    #expect(try Self.load(method: "none", rung: ["codec": #""av1""#]).video[1].preset == "10", "the default preset")
  }

  @Test(arguments: [
    ("preset", #""fast""#, "found \"fast\""), ("preset", "14", "0 (slowest) to 13 (fastest)"),
    ("preset", "9.5", "SVT-AV1's preset number"), ("level", #""4.0""#, "SVT-AV1 writes the level"),
    ("maxrate", "4000000", "VBR"), ("bufsize", "4000000", "VBR"), ("profile", #""high""#, "main"),
  ])
  func fieldsSVTAV1DoesNotTakeAreRefused(_ field: String, _ value: String, _ words: String) throws {
    let error = try #require(Self.refusal { try Self.load(rung: ["codec": #""av1""#, field: value]) })
    #expect(error.path == "$.video[1].\(field)")
    #expect(error.message.contains(words), "\(error.message)")
  }

  @Test func aPresetNumberIsForAV1Only() throws {
    let error = try #require(Self.refusal { try Self.load(rung: ["codec": #""hevc""#, "preset": "10"]) })
    #expect(error.path == "$.video[1].preset")
  }

  @Test func mpegTSIsRefusedNamingTheCodecField() throws {
    let error = try #require(Self.refusal { try Self.load(container: "ts", rung: ["codec": #""av1""#]) })
    #expect(error.path == "$.video[1].codec")
    #expect(error.message.contains("\"fmp4\"") && error.message.contains("MPEG-TS"), "\(error.message)")
  }

  @Test func sampleAESIsRefusedWithTheReason() throws {
    let error = try #require(Self.refusal { try Self.load(method: "sample-aes", rung: ["codec": #""av1""#]) })
    #expect(error.path == "$.video[1].codec")
    #expect(error.message.contains("tile data") && error.message.contains("\"aes-128\""), "\(error.message)")
  }
}
