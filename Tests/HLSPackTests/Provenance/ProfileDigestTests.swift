import Foundation
import HLSPackCore
import Testing

@testable import HLSPack

/// provenance.json's profile digest: a setting added in a later version
/// leaves the digest of a profile that does not set it as it was, so `batch`
/// does not make again every asset an earlier version made.
@Suite struct ProfileDigestTests {
  private func profile(segment extra: String) throws -> Profile {
    let json = """
      { "version": 1, "segment": { "duration": 6, "container": "ts"\(extra) },
        "video": [ { "name": "720p", "codec": "copy" } ], "encryption": { "method": "none" } }
      """
    return try ProfileLoader.load(
      data: Data(json.utf8), file: "profile.json", baseDirectory: FileManager.default.temporaryDirectory,
      environment: [:])
  }

  @Test func everyLaterSettingIsDescribedAsTheDigestExpectsWhileUnset() throws {
    let description = String(reflecting: try profile(segment: ""))
    for unset in AssetProvenance.laterSettingsUnset {
      #expect(description.contains(unset), "the description no longer reads \(unset): the digest would change")
    }
  }

  @Test func anUnsetLaterSettingLeavesTheDigestAndASetOneChangesIt() throws {
    let unset = try AssetProvenance.digest(of: try profile(segment: ""))
    let set = try AssetProvenance.digest(of: try profile(segment: #", "program_date_time": "2026-01-01T00:00:00Z""#))
    #expect(unset != set)
  }
}
