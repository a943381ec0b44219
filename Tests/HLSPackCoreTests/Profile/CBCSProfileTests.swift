import Foundation
import Testing

@testable import HLSPackCore

/// SAMPLE-AES with fMP4 (`cbcs`) loads; what would need several keys or IVs
/// per init segment is refused by its JSON path until it is built.
@Suite struct CBCSProfileTests {
  static func load(_ encryption: String) throws -> Profile {
    let json = ProfileJSON.profile(["segment": #"{"duration": 6, "container": "fmp4"}"#, "encryption": encryption])
    return try ProfileLoader.load(
      data: Data(json.utf8), file: "test.json", baseDirectory: URL(fileURLWithPath: "/profiles"))
  }

  @Test(arguments: [
    #"{"method": "sample-aes"}"#, #"{"method": "sample-aes", "fairplay": true}"#,
    #"{"method": "sample-aes", "scope": "rendition"}"#,
    #"{"method": "sample-aes", "iv": "000102030405060708090a0b0c0d0e0f"}"#,
  ])
  func sampleAESInFMP4Loads(_ encryption: String) throws {
    let profile = try Self.load(encryption)
    #expect(profile.encryption.method == .sampleAES)
    #expect(profile.segment.container == .fmp4)
  }

  @Test(arguments: [
    (#"{"method": "sample-aes", "rotate_every": 2}"#, "$.encryption.rotate_every", "key rotation"),
    (#"{"method": "sample-aes", "clear_lead_segments": 1}"#, "$.encryption.clear_lead_segments", "clear lead"),
    (#"{"method": "sample-aes", "iv": "sequence", "scope": "rendition"}"#, "$.encryption.iv", "constant IV"),
  ])
  func whatNeedsSeveralInitSegmentsIsRefused(_ encryption: String, _ path: String, _ words: String) throws {
    do {
      _ = try Self.load(encryption)
      Issue.record("accepted \(encryption)")
    } catch let error as ProfileError {
      #expect(error.path == path)
      #expect(error.message.contains(words), "\(error.message)")
      #expect(error.message.contains("cbcs"), "\(error.message)")
    }
  }
}
