import Foundation
import HLSPackCore
import HLSPackTestSupport

/// An asset encoded once per test run and shared by the tests that only read it.
final class EncodedPackage: @unchecked Sendable {
  let folder: URL
  let master: PlaylistReader

  private init(encryption: String, container: String, rungs: [String]?) throws {
    let scratch = try ScratchFolder.make("package")
    let profile = try Fixtures.profile(in: scratch, encryption: encryption, container: container, rungs: rungs)
    let outcome = try Fixtures.encode(
      profile: profile, input: try Fixtures.clip(), output: scratch.appendingPathComponent("out"))
    if let error = outcome.error { throw error }
    folder = outcome.destination
    master = try PlaylistReader(contentsOf: folder.appendingPathComponent("master.m3u8"))
  }

  private static let lock = NSLock()
  nonisolated(unsafe) private static var cache: [String: EncodedPackage] = [:]

  static func with(encryption: String, container: String = "ts", rungs: [String]? = nil) throws -> EncodedPackage {
    let name = "\(encryption)|\(container)|\(rungs ?? [])"
    return try lock.withLock {
      if let cached = cache[name] { return cached }
      let package = try EncodedPackage(encryption: encryption, container: container, rungs: rungs)
      cache[name] = package
      return package
    }
  }

  static func aes128() throws -> EncodedPackage { try with(encryption: #"{"method": "aes-128"}"#) }

  func playlist(_ variantURI: String) throws -> PlaylistReader {
    try PlaylistReader(contentsOf: folder.appendingPathComponent(variantURI))
  }

  /// The clear bytes of a segment: decrypted by the openssl CLI when encrypted.
  func clearSegment(variant: String, _ segment: PlaylistReader.Segment, index: Int) throws -> [UInt8] {
    try Fixtures.clearSegment(
      segment, in: folder.appendingPathComponent(variant).deletingLastPathComponent(), index: index)
  }
}

extension Fixtures {
  /// The clear bytes of a segment of the media playlist in `base`: decrypted by
  /// the openssl CLI when encrypted (which also checks the PKCS#7 padding).
  static func clearSegment(_ segment: PlaylistReader.Segment, in base: URL, index: Int) throws -> [UInt8] {
    let file = base.appendingPathComponent(segment.uri)
    guard let key = segment.keyAttributes else { return Array(try Data(contentsOf: file)) }
    guard let uri = key["URI"] else { throw FixtureError("key tag without URI") }
    let keyBytes = Array(try Data(contentsOf: base.appendingPathComponent(uri)))
    let iv = key["IV"].map { String($0.dropFirst(2)) } ?? Hex.encode(SegmentIV.sequence(UInt64(index)))
    let result = try Command.run(
      "openssl",
      [
        "enc", "-d", "-aes-128-cbc", "-K", Hex.encode(keyBytes), "-iv", iv, "-in", file.path,
      ])
    guard result.status == 0 else { throw FixtureError("openssl could not decrypt \(file.path): \(result.stderr)") }
    return Array(result.stdout)
  }
}
