import Foundation
import Testing

@testable import HLSPackCore

/// `encryption.encrypt_init` is for AES-128 in fMP4; every other method and
/// container is refused by its JSON path, saying what it needs.
@Suite struct EncryptInitProfileTests {
  static func load(container: String, encryption: String) throws -> Profile {
    let json = ProfileJSON.profile([
      "segment": #"{"duration": 6, "container": "\#(container)"}"#, "encryption": encryption,
    ])
    return try ProfileLoader.load(
      data: Data(json.utf8), file: "test.json", baseDirectory: URL(fileURLWithPath: "/profiles"))
  }

  @Test func aes128InFMP4Loads() throws {
    let encrypted = try Self.load(container: "fmp4", encryption: #"{"method": "aes-128", "encrypt_init": true}"#)
    #expect(encrypted.encryption.encryptInit)
    #expect(try !Self.load(container: "fmp4", encryption: #"{"method": "aes-128"}"#).encryption.encryptInit)
  }

  @Test(arguments: [
    ("ts", #"{"method": "aes-128", "encrypt_init": true}"#, #"needs container "fmp4""#),
    ("fmp4", #"{"method": "sample-aes", "encrypt_init": true}"#, #"needs method "aes-128""#),
    ("ts", #"{"method": "sample-aes", "encrypt_init": true}"#, #"needs method "aes-128" and container "fmp4""#),
    ("fmp4", #"{"method": "none", "encrypt_init": true}"#, #"method is "none""#),
    ("fmp4", #"{"method": "aes-128", "encrypt_init": "yes"}"#, "expected true or false"),
  ])
  func anythingElseIsRefusedByItsPath(_ container: String, _ encryption: String, _ words: String) throws {
    do {
      _ = try Self.load(container: container, encryption: encryption)
      Issue.record("accepted \(encryption) in \(container)")
    } catch let error as ProfileError {
      #expect(error.path == "$.encryption.encrypt_init")
      #expect(error.message.contains(words), "\(error.message)")
    }
  }
}
