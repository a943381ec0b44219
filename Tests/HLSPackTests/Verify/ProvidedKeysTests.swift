import Foundation
import HLSPackCore
import HLSPackTestSupport
import Testing

@testable import HLSPack
@testable import HLSPackVerify

/// The keys `verify --key` and `--keys` give, by key URI.
@Suite struct ProvidedKeysTests {
  static let key = [UInt8](0..<16)
  static let other = [UInt8](repeating: 9, count: 16)

  /// A keys.json in a fresh folder, with `keys/a.key` holding `key`.
  func manifest(_ entries: [KeysManifest.Key], in folder: TemporaryFolder) throws -> URL {
    let keys = folder.url.appendingPathComponent("keys")
    try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true)
    try Data(Self.key).write(to: keys.appendingPathComponent("a.key"))
    let url = folder.url.appendingPathComponent("keys.json")
    try JSONEncoder().encode(KeysManifest(keys: entries)).write(to: url)
    return url
  }

  func entry(_ uri: String, file: String = "keys/a.key", key: [UInt8]? = nil) -> KeysManifest.Key {
    KeysManifest.Key(
      uri: uri, keyID: String(repeating: "0", count: 32), keyFile: file, renditions: ["main"], periods: [0],
      segments: [], key: key.map { Hex.encode($0) })
  }

  @Test func keyArgumentSplitsAtTheLastEqualsSign() throws {
    var keys = ProvidedKeys()
    try keys.add(argument: "skd://x?a=b=" + Hex.encode(Self.key))
    #expect(keys.lookup("skd://x?a=b") == .key(Self.key))
    #expect(throws: VerifyError.self) { try keys.add(argument: "skd://y=0011") }
  }

  @Test func manifestKeysFromFilesOrExported() throws {
    let folder = try TemporaryFolder()
    var keys = ProvidedKeys()
    try keys.add(
      manifest: try manifest(
        [entry("myapp-key://file"), entry("myapp-key://exported", file: "keys/none.key", key: Self.other)],
        in: folder))
    #expect(keys.lookup("myapp-key://file") == .key(Self.key))
    #expect(keys.lookup("myapp-key://exported") == .key(Self.other))
    #expect(keys.lookup("myapp-key://absent") == nil)
  }

  /// Two keys for one URI, or a key file above the keys.json's folder, cannot be used.
  @Test func unusableManifestKeys() throws {
    let folder = try TemporaryFolder()
    var keys = ProvidedKeys()
    try keys.add(
      manifest: try manifest(
        [
          entry("skd://twice"), entry("skd://twice", file: "keys/none.key", key: Self.other),
          entry("skd://above", file: "../a.key"), entry("skd://missing", file: "keys/none.key"),
        ], in: folder))
    for uri in ["skd://twice", "skd://above", "skd://missing"] {
      guard case .unusable? = keys.lookup(uri) else {
        Issue.record("\(uri): \(String(describing: keys.lookup(uri)))")
        continue
      }
    }
    // A key given on the command line replaces the keys.json's.
    try keys.add(argument: "skd://twice=" + Hex.encode(Self.key))
    #expect(keys.lookup("skd://twice") == .key(Self.key))
  }
}
