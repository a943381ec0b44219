import Foundation
import Testing

@testable import HLSPackCore

@Suite struct KeysManifestTests {
  static func key(exported: String?) -> KeysManifest.Key {
    KeysManifest.Key(
      uri: "skd://00112233445566778899aabbccddeeff", previousURI: "../keys/k.key",
      keyID: "00112233445566778899aabbccddeeff",
      keyFile: "keys/00112233445566778899aabbccddeeff.key", renditions: ["360p", "720p"], periods: [0],
      segments: [KeysManifest.Segment(uri: "360p/segment-0.ts", iv: "0x000102030405060708090A0B0C0D0E0F")],
      key: exported)
  }

  private func encodedKey(_ key: KeysManifest.Key) throws -> [String: Any] {
    let data = try JSONEncoder().encode(KeysManifest(keys: [key]))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try #require((root["keys"] as? [[String: Any]])?.first)
  }

  @Test func keysAreSnakeCase() throws {
    let key = try encodedKey(Self.key(exported: "2b7e151628aed2a6abf7158809cf4f3c"))
    #expect(Set(key.keys) == ["uri", "previous_uri", "key_id", "key_file", "renditions", "periods", "segments", "key"])
  }

  /// Key bytes appear only when exported on purpose.
  @Test func keyBytesAbsentUnlessExported() throws {
    let key = try encodedKey(Self.key(exported: nil))
    #expect(key["key"] == nil)
    #expect(key["key_id"] as? String == "00112233445566778899aabbccddeeff")
  }

  @Test func roundTrip() throws {
    let manifest = KeysManifest(keys: [Self.key(exported: nil), Self.key(exported: "2b7e151628aed2a6abf7158809cf4f3c")])
    let data = try JSONEncoder().encode(manifest)
    #expect(try JSONDecoder().decode(KeysManifest.self, from: data) == manifest)
  }
}
