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

  /// Only the decision travels down: each protector's keying writes the decision's METHOD,
  /// and SAMPLE-AES in either container keeps one IV per key where AES-128 draws one per segment.
  @Test func keyingFollowsTheDecision() throws {
    typealias Case = (method: String, container: String, protection: SegmentProtection, tag: KeyTag.Method, oneIV: Bool)
    let cases: [Case] = [
      ("aes-128", "ts", .aes128Segments, .aes128, false), ("aes-128", "fmp4", .aes128Segments, .aes128, false),
      ("sample-aes", "ts", .sampleAESTransportStream, .sampleAES, true),
      ("sample-aes", "fmp4", .cbcs, .sampleAES, true),
    ]
    for (method, container, protection, tag, oneIVPerKey) in cases {
      let (made, folder) = try protector(method, container: container)
      defer { try? FileManager.default.removeItem(at: folder) }
      let keying = try #require(made?.keying)
      #expect(keying.protection == protection)
      let first = try #require(try keying.material(for: 0)), second = try #require(try keying.material(for: 1))
      #expect(first.tag.method == tag && second.tag.method == tag, "\(method) \(container)")
      #expect((first.iv == second.iv) == oneIVPerKey, "\(method) \(container)")
    }
  }
}
