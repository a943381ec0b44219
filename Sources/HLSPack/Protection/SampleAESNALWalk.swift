import HLSPackCore
import HLSPackCrypto

/// The walk over an H.264 access unit that SAMPLE-AES in MPEG-TS shares
/// between encrypting and decrypting (Apple MPEG-2 Stream Encryption §2.2):
/// each slice NAL unit (types 1 and 5) longer than 48 bytes goes through
/// `transform`, which appends it to the result; start codes and all other NAL
/// units are copied byte for byte.
enum SampleAESNALWalk {
  /// The rewritten access unit (a new array of at least `capacity`).
  /// - Parameters:
  ///   - accessUnit: one Annex B access unit; must open with a start code.
  ///   - transform: appends one encrypted-slice NAL unit, rewritten, to `out`.
  @inline(__always)
  static func rewrite(
    _ accessUnit: UnsafeBufferPointer<UInt8>, capacity: Int,
    _ transform: (_ nal: UnsafeBufferPointer<UInt8>, _ out: inout [UInt8]) throws -> Void
  ) throws -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(capacity)
    var scanner = try AnnexB.Scanner(accessUnit: accessUnit)
    var copied = 0
    while let nal = scanner.next() {
      guard nal.count >= SampleAESLayout.minimumEncryptedNALLength,
        SampleAESLayout.isEncryptedVideoType(accessUnit[nal.lowerBound])
      else { continue }  // copied later together with the start codes around it
      out.append(contentsOf: UnsafeBufferPointer(rebasing: accessUnit[copied..<nal.lowerBound]))
      try transform(UnsafeBufferPointer(rebasing: accessUnit[nal]), &out)
      copied = nal.upperBound
    }
    out.append(contentsOf: UnsafeBufferPointer(rebasing: accessUnit[copied...]))
    return out
  }
}
