import HLSPackCore
import HLSPackCrypto

/// Deterministic keys, key ids and IVs for reproducible fixtures:
/// the first 16 bytes of HMAC-SHA-256(key: UTF-8 seed, message: "hlspack/v1/" + label),
/// with labels `key/<asset>/<scope>/<period>`, `key-id/<asset>/<scope>/<period>` and
/// `iv/<asset>/<rendition>/<segment index>` (scope: `asset` or `rendition/<name>`).
struct SeedDerivation: Sendable {
  let seed: [UInt8]

  init(seed: String) { self.seed = Array(seed.utf8) }

  func bytes(_ label: String) throws -> [UInt8] {
    Array(try Digest.hmacSHA256(key: seed, message: Array("hlspack/v1/\(label)".utf8)).prefix(16))
  }
}
