import Foundation
import HLSPackCore
import HLSPackCrypto

/// Deterministic keys, key ids and IVs for reproducible fixtures:
/// the first 16 bytes of HMAC-SHA-256(key: UTF-8 seed, message: "hlspack/v1/" + label),
/// with labels `key/<asset>/<scope>/<period>`, `key-id/<asset>/<scope>/<period>`,
/// `iv/<asset>/<rendition>/<segment index>` and, for an encrypted
/// initialization section, `init-iv/<asset>/<rendition>` (scope: `asset` or `rendition/<name>`).
struct SeedDerivation: Sendable {
  let seed: [UInt8]

  init(seed: String) { self.seed = Array(seed.utf8) }

  func bytes(_ label: String) throws -> [UInt8] {
    Array(try Digest.hmacSHA256(key: seed, message: Array("hlspack/v1/\(label)".utf8)).prefix(16))
  }

  /// The labels name the asset, not its source, so two sources with one file
  /// name get the same keys and IVs under one seed. One run refuses two
  /// inputs with the same asset name; what is left is a run that replaces
  /// (`--force`) an asset made from another source with keys it derived too.
  /// Returns the warning for that case: the asset at `destination` names
  /// another input in its report.json and shares a key id with `report`.
  static func sharedKeysWarning(replacing destination: URL, with report: AssetReport) -> String? {
    let path = destination.appendingPathComponent("report.json").path
    guard let data = FileManager.default.contents(atPath: path),
      let old = try? JSONDecoder().decode(AssetReport.self, from: data),
      URL(fileURLWithPath: old.input).standardizedFileURL != URL(fileURLWithPath: report.input).standardizedFileURL,
      !Set(old.keys.map(\.keyID)).isDisjoint(with: report.keys.map(\.keyID))
    else { return nil }
    return "replaces the asset made from \(old.input) with one from \(report.input) that has the same keys and IVs: "
      + "the seed derives them from the asset name alone; use a seed per source"
  }
}
