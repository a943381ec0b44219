import Foundation
import HLSPackTestSupport
import Testing

@testable import HLSPackCore

/// `encryption.key_file`: what is read, what is refused before any media
/// work, and when the run is warned that others can read the key.
@Suite struct KeyFileTests {
  let folder: TemporaryFolder
  /// The test key of RFC 3602's case #1 (a clearly marked test key).
  let key = Hex.decode("06a9214036b8a15b512e03d534120006") ?? []

  init() throws { folder = try TemporaryFolder() }

  private func load(keyFile: String) throws -> Profile {
    let json =
      #"{"version": 1, "segment": {"duration": 6}, "video": [\#(ProfileJSON.firstRung)], "#
      + #""encryption": {"method": "aes-128", "key_file": "\#(keyFile)"}}"#
    return try ProfileLoader.load(data: Data(json.utf8), file: "test.json", baseDirectory: folder.url)
  }

  private func writeKey(_ bytes: [UInt8], mode: mode_t) throws -> URL {
    let url = folder.url.appendingPathComponent("k.bin")
    try Data(bytes).write(to: url)
    chmod(url.path, mode)
    return url
  }

  @Test func privateKeyFileIsReadWithoutWarning() throws {
    _ = try writeKey(key, mode: 0o600)
    let profile = try load(keyFile: "k.bin")
    #expect(profile.encryption.keySource == .fixed(key))
    #expect(profile.warnings.isEmpty, "\(profile.warnings)")
  }

  @Test(arguments: [0o644, 0o640, 0o604, 0o660] as [mode_t])
  func keyFileOthersCanOpenIsWarnedAbout(_ mode: mode_t) throws {
    let url = try writeKey(key, mode: mode)
    let profile = try load(keyFile: "k.bin")
    #expect(profile.encryption.keySource == .fixed(key))
    #expect(profile.warnings == ["the key file \(url.path) can be opened by other users; chmod 600 it"])
  }

  /// A device or a folder named by mistake is refused at once: reading
  /// /dev/zero or /dev/urandom whole would never end.
  @Test(arguments: ["/dev/zero", "/dev/urandom", "."])
  func nonRegularFileIsRefused(_ path: String) {
    let error = #expect(throws: ProfileError.self) { try load(keyFile: path) }
    #expect(error?.path == "$.encryption.key_file")
    #expect(error?.message.hasSuffix("is not a regular file") == true, "\(String(describing: error))")
  }

  /// Opening a pipe would wait for a writer for ever.
  @Test func pipeIsRefused() throws {
    let url = folder.url.appendingPathComponent("k.fifo")
    #expect(mkfifo(url.path, 0o600) == 0)
    let error = #expect(throws: ProfileError.self) { try load(keyFile: "k.fifo") }
    #expect(error?.message == "the key file \(url.path) is not a regular file")
  }

  @Test(arguments: [15, 17, 0])
  func keyFileOfWrongSizeIsRefused(_ size: Int) throws {
    _ = try writeKey([UInt8](repeating: 1, count: size), mode: 0o600)
    let error = #expect(throws: ProfileError.self) { try load(keyFile: "k.bin") }
    #expect(error?.message.contains("holds \(size) bytes; an AES-128 key file holds exactly 16") == true)
  }

  @Test func missingKeyFileNamesIt() {
    let error = #expect(throws: ProfileError.self) { try load(keyFile: "absent.bin") }
    #expect(
      error?.message
        == "cannot read the key file \(folder.url.appendingPathComponent("absent.bin").path) (No such file or directory)"
    )
  }

  private func load(keyInfo: String) throws -> Profile {
    let json =
      #"{"version": 1, "segment": {"duration": 6}, "video": [\#(ProfileJSON.firstRung)], "#
      + #""encryption": {"method": "aes-128", "key_info": "\#(keyInfo)"}}"#
    return try ProfileLoader.load(data: Data(json.utf8), file: "test.json", baseDirectory: folder.url)
  }

  /// A key-info file is read whole, so it has a bound: /dev/zero named by
  /// mistake ends in an error, not in memory filling up.
  @Test func keyInfoFileIsBounded() {
    let error = #expect(throws: ProfileError.self) { try load(keyInfo: "/dev/zero") }
    #expect(error?.path == "$.encryption.key_info")
    #expect(error?.message == "cannot read the key-info file /dev/zero (larger than 64 KiB)")
  }

  @Test func keyInfoFileThatIsNotTextIsNamed() throws {
    let url = folder.url.appendingPathComponent("k.keyinfo")
    try Data([0x6b, 0x2e, 0x62, 0xff, 0x0a]).write(to: url)
    let error = #expect(throws: ProfileError.self) { try load(keyInfo: "k.keyinfo") }
    #expect(error?.message == "the key-info file \(url.path) is not UTF-8 text")
  }

  @Test func missingKeyInfoFileSaysWhy() {
    let error = #expect(throws: ProfileError.self) { try load(keyInfo: "absent.keyinfo") }
    #expect(
      error?.message
        == "cannot read the key-info file \(folder.url.appendingPathComponent("absent.keyinfo").path) (No such file or directory)"
    )
  }
}
