import Foundation
import HLSPackCore
import HLSPackTestSupport
import Testing

/// `hlspack verify` on a package whose key URI has an app scheme
/// (`myapp-key://{key_id}`), which no client can fetch from the package:
/// decrypted with the keys given by `--keys` or `--key`, and reported as not
/// verifiable without them.
@Suite("hlspack verify: keys given on the command line")
struct VerifyKeysTests {
  let verifier = VerifyTests()

  static let lock = NSLock()
  nonisolated(unsafe) static var made: URL?

  /// The clip's video and audio copied into 2 s AES-128 TS segments under one app-scheme key.
  static func package() throws -> URL {
    try lock.withLock {
      if let made { return made }
      let scratch = try ScratchFolder.make("appkey")
      let profile = scratch.appendingPathComponent("profile.json")
      try Data(
        """
        {"version": 1, "segment": {"duration": 2, "container": "ts"}, \(VerifyTests.copied),
         "encryption": {"method": "aes-128", "key_uri": "myapp-key://{key_id}"}}
        """.utf8
      ).write(to: profile)
      let output = scratch.appendingPathComponent("out")
      let run = try Command.run(
        try Fixtures.executable(),
        ["encode", "--profile", profile.path, "--output", output.path, try Fixtures.clip().path])
      guard run.status == 0 else { throw FixtureError("encode failed: \(run.stderr)") }
      made = output.appendingPathComponent("clip")
      return output.appendingPathComponent("clip")
    }
  }

  /// The key URI and key file keys.json gives for the package's one key.
  func keyEntry() throws -> (uri: String, file: URL) {
    let package = try Self.package()
    let data = try Data(contentsOf: package.appendingPathComponent("keys.json"))
    let manifest = try JSONDecoder().decode(KeysManifest.self, from: data)
    let key = try #require(manifest.keys.first)
    #expect(manifest.keys.count == 1 && key.uri.hasPrefix("myapp-key://"))
    return (key.uri, package.appendingPathComponent(key.keyFile))
  }

  func verify(_ arguments: [String]) throws -> (status: Int32, rules: [String], text: String) {
    let run = try Command.run(
      try Fixtures.executable(), ["verify", "--json", try Self.package().path] + arguments)
    let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.stderr)")
    let findings = try #require(object["findings"] as? [[String: Any]])
    var rules: [String] = []
    for case let rule as String in findings.map({ $0["rule"] }) where !rules.contains(rule) { rules.append(rule) }
    return (run.status, rules, run.text)
  }

  /// The key is reported once, and the rendition's segments once, naming the checks not made.
  @Test func withoutTheKeyTheSegmentsAreNotVerifiable() throws {
    let result = try verify([])
    #expect(result.rules == ["key.unavailable", "segment.not-verifiable"])
    #expect(result.status == 0)
    let uri = try keyEntry().uri
    #expect(result.text.contains("2 AES-128 segments under key \(uri): decryption, PKCS#7 padding"), "\(result.text)")
    #expect(result.text.components(separatedBy: "\"key.unavailable\"").count == 2, "\(result.text)")
  }

  @Test func withTheKeysJSON() throws {
    let result = try verify(["--keys", try Self.package().appendingPathComponent("keys.json").path])
    #expect(result.rules == [] && result.status == 0, "\(result.text)")
  }

  @Test func withTheKeyInHexOrInAFile() throws {
    let (uri, file) = try keyEntry()
    let hex = Hex.encode([UInt8](try Data(contentsOf: file)))
    for value in [hex, hex.uppercased(), file.path] {
      let result = try verify(["--key", "\(uri)=\(value)"])
      #expect(result.rules == [] && result.status == 0, "\(value): \(result.text)")
    }
  }

  /// A key given with --key replaces the keys.json's: a wrong one is found out.
  @Test func wrongKeyGiven() throws {
    let (uri, file) = try keyEntry()
    let wrong = Hex.encode([UInt8](try Data(contentsOf: file)).map { $0 ^ 0x5A })
    let result = try verify([
      "--keys", try Self.package().appendingPathComponent("keys.json").path, "--key", "\(uri)=\(wrong)",
    ])
    #expect(result.rules == ["segment.aes128-undecryptable"] && result.status == 1)
  }

  @Test(arguments: ["myapp-key://x=0011", "myapp-key://x=/nonexistent/key", "no-equals-sign"])
  func unusableKeyArgumentIsAUsageError(argument: String) throws {
    let run = try Command.run(
      try Fixtures.executable(), ["verify", "--json", try Self.package().path, "--key", argument])
    #expect(run.status == 64, "\(run.stderr)")
    #expect(run.stderr.contains("--key"), "\(run.stderr)")
  }

  @Test func keyFileOfAnotherSizeIsAUsageError() throws {
    let file = try ScratchFolder.make("longkey").appendingPathComponent("key.bin")
    try Data(repeating: 7, count: 17).write(to: file)
    let run = try Command.run(
      try Fixtures.executable(), ["verify", "--json", try Self.package().path, "--key", "myapp-key://x=\(file.path)"])
    #expect(run.status == 64 && run.stderr.contains("17 bytes"), "\(run.stderr)")
  }
}
