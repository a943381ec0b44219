import Foundation
import HLSPackCore
import HLSPackCrypto
import Testing

@testable import HLSPack

/// The segment writer's cipher stage runs on whichever thread is free, the
/// sender's included: the files must still be one CBC run per segment.
@Suite struct SegmentFileWriterTests {
  /// Parts of uneven sizes (most not a multiple of 16) sent as fast as the
  /// writer takes them, so the sender keeps finding the queue full and
  /// encrypting; encrypted and clear segments alternate, keys and IVs change.
  @Test func everySegmentIsOneCBCRunWhoeverEncryptedItsParts() throws {
    let folder = try Fixtures.scratchFolder()
    // Made before the writer starts, so that sending is only sending.
    let segments = (0..<12).map { index in
      (
        url: folder.appendingPathComponent("segment_\(index).ts"), material: index % 3 == 2 ? nil : material(index),
        parts: (0..<(20 + index)).map { number in
          // Sizes from 0 to 19,999 bytes, in no order; contents that differ from part to part.
          (0..<((index * 7_919 + number * 104_729) % 20_000)).map { UInt8(truncatingIfNeeded: $0 &* 31 ^ number ^ ($0 >> 9)) }
        }
      )
    }
    let writer = try SegmentFileWriter(rendition: "main", checksums: true)
    for segment in segments {
      try writer.send(.open(segment.url, wholeSegment: segment.material))
      for part in segment.parts { try writer.send(.bytes(part)) }
      try writer.send(.close(record(segment.url.lastPathComponent)))
    }
    let records = try writer.finish()
    #expect(records.map(\.uri) == segments.map(\.url.lastPathComponent))
    let cipher = try AES128CBC()
    for (record, segment) in zip(records, segments) {
      let written = Array(try Data(contentsOf: segment.url))
      let plain = Array(segment.parts.joined())
      let wanted = try segment.material.map { try cipher.encryptPadded(plain, key: $0.key.content.bytes, iv: $0.iv) } ?? plain
      #expect(written == wanted, "\(record.uri)")
      #expect(record.byteCount == wanted.count)
      #expect(record.sha256 == Hex.encode(try Digest.sha256(wanted)))
    }
  }

  /// A key and an IV of their own for every segment.
  private func material(_ index: Int) -> SegmentKeying.Material {
    let bytes = { (salt: Int) in (0..<16).map { UInt8(truncatingIfNeeded: index &* 97 &+ salt &* 13 &+ $0) } }
    let key = KeyRing.Key(content: ContentKey(id: bytes(1), bytes: bytes(2)), file: "k.key", period: 0)
    return SegmentKeying.Material(key: key, iv: bytes(3), tag: .none)
  }

  private func record(_ uri: String) -> SegmentRecord {
    SegmentRecord(
      uri: uri, startTicks: 0, durationTicks: 0, byteCount: 0, sha256: nil, key: .none, keyID: nil, keyFile: nil, period: 0,
      iv: nil, keyframes: [], discontinuity: false)
  }
}
