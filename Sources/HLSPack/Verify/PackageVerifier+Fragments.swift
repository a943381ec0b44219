import Foundation
import HLSPackCore
import HLSPackCrypto
import HLSPackMedia

extension PackageVerifier {
  /// The initialization section at `resource` (a path from the package
  /// root), read and parsed once per run; nil when it cannot be.
  func initSection(_ resource: String, run: inout Run) -> FragmentedInitSection? {
    if let known = run.initSections[resource] { return known }
    let bytes = try? source.readWhole(resource, limit: Self.initSectionLimit)
    let parsed = bytes.flatMap { try? FragmentedInitSection($0) }
    run.initSections[resource] = .some(parsed)
    return parsed
  }

  static let initSectionLimit = 16 << 20
  /// A media segment read whole for its boxes; larger ones are left unchecked.
  static let fragmentLimit = 256 << 20

  /// A clear or `cbcs` fMP4 segment, read whole (one segment at a time) and
  /// decrypted with `key` when its tracks are protected.
  func inspectFragment(
    _ resource: String, segment: VerifiedMediaPlaylist.Segment, folder: String, key: [UInt8]?, run: inout Run
  ) -> SegmentMediaFacts? {
    guard let map = segment.mapURI,
      let section = initSection(URIReference.fromPackageRoot(map, writtenIn: folder), run: &run),
      var bytes = try? source.readWhole(resource, limit: Self.fragmentLimit)
    else { return nil }
    let cipher = key.flatMap { try? CBCSChainDecryptor(key: $0) }
    return FragmentInspector.inspect(&bytes, initSection: section, cipher: cipher) { annexB, hevc in
      StandaloneDecodeCheck.problem(annexB, codec: hevc ? .hevc : .h264)
    }
  }
}

/// `cbcs` decryption for `FragmentInspector`: one key schedule, a chain per call.
final class CBCSChainDecryptor: CBCSChainDecrypting {
  private let cipher: SampleAESCipher

  init(key: [UInt8]) throws { cipher = try SampleAESCipher(key: key, encrypt: false) }

  func decryptChain(_ bytes: inout [UInt8], runs: [Range<Int>], iv: [UInt8]) throws {
    for run in runs where run.lowerBound < 0 || run.upperBound > bytes.count || run.count % 16 != 0 {
      throw VerifyError(description: "cbcs run \(run) is not whole blocks inside \(bytes.count) bytes")
    }
    try SampleAESCipher.withIV(iv) { iv in
      try cipher.restart(iv: iv)
      try bytes.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        for run in runs where !run.isEmpty { try cipher.crypt(base + run.lowerBound, count: run.count) }
      }
    }
  }
}
