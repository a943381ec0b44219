import Foundation
import HLSPackCore
import Testing

@testable import HLSPack

/// Each protection decision becomes the protector of its scheme, with only
/// the hooks that scheme needs; a clear rendition has none.
@Suite struct SegmentProtectorTests {
  private func protector(_ method: String, container: String) throws -> (SegmentProtector?, URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("protector-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let json = """
      { "version": 1, "segment": { "duration": 6, "container": "\(container)" },
        "video": [ { "name": "720p", "codec": "copy" } ], "encryption": { "method": "\(method)" } }
      """
    let profile = try ProfileLoader.load(
      data: Data(json.utf8), file: "profile.json", baseDirectory: folder, environment: [:])
    let protection = SegmentProtection(profile)
    let keys = protection.encrypts ? KeyRing(settings: profile.encryption, asset: "a", folder: folder) : nil
    let made = try protection.protector(rendition: "720p", asset: "a", encryption: profile.encryption, keys: keys)
    return (made, folder)
  }

  @Test func clearHasNoProtector() throws {
    let (clear, folder) = try protector("none", container: "ts")
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(clear == nil)
  }

  @Test func aes128IsTheFileWritersWholeSegmentRun() throws {
    for container in ["ts", "fmp4"] {
      let (made, folder) = try protector("aes-128", container: container)
      defer { try? FileManager.default.removeItem(at: folder) }
      let aes = try #require(made as? AES128SegmentProtector)
      #expect(aes.encryptsWholeSegments && !aes.protectsFragments && aes.sampleEncryptor == nil)
      #expect(try aes.protectInitialization([1, 2, 3], firstSegment: 0) == [1, 2, 3])
    }
  }

  @Test func sampleAESInTransportStreamRefusesASegmentTheMuxerDidNotEncrypt() throws {
    let (made, folder) = try protector("sample-aes", container: "ts")
    defer { try? FileManager.default.removeItem(at: folder) }
    let ts = try #require(made as? SampleAESTransportStreamProtector)
    #expect(ts.sampleEncryptor === ts && !ts.encryptsWholeSegments && !ts.protectsFragments)
    let material = try ts.keying.material(for: 0)
    #expect(throws: ProtectionRefusal.self) { try ts.finishSegment(0, material: material) }
    #expect(try ts.finishSegment(0, material: nil) == false)
  }

  @Test func cbcsProtectsFragmentsAfterItsInitSegment() throws {
    let (made, folder) = try protector("sample-aes", container: "fmp4")
    defer { try? FileManager.default.removeItem(at: folder) }
    let cbcs = try #require(made as? CBCSRenditionProtector)
    #expect(cbcs.protectsFragments && !cbcs.encryptsWholeSegments && cbcs.sampleEncryptor == nil)
    #expect(throws: PackError.self) { try cbcs.protectFragment([], index: 0) }
  }
}
