import Foundation
import HLSPackCore
import HLSPackCrypto
import HLSPackTestSupport
import Testing

@testable import HLSPack

/// Whole-segment AES-128 is encrypted by the sending (muxing) thread or by
/// the writer, and a segment's CBC run can pass from the one to the other at
/// any part: the files must still be one CBC run per segment.
@Suite struct SegmentFileWriterTests {
  /// Who encrypts: always the sender, always the writer, the rule the
  /// packager uses (parts sent as fast as the writer takes them), and a fixed
  /// schedule under which the sender takes every encrypted segment and hands
  /// it over after 0, 1 or 2 parts, mostly in the middle of a block (most
  /// parts are not a multiple of 16 bytes).
  @Test(arguments: Schedule.allCases, [1, 2])
  func everySegmentIsOneCBCRunWhoeverEncryptedItsParts(_ schedule: Schedule, lanes: Int) throws {
    let folder = try ScratchFolder.make()
    let segments = (0..<13).map { index in
      (
        url: folder.appendingPathComponent("segment_\(index).ts"), material: index % 3 == 2 ? nil : material(index),
        parts: (0..<(20 + index)).map { number in
          // Sizes from 0 to 19,999 bytes, in no order; contents that differ from part to part.
          (0..<((index * 7_919 + number * 104_729) % 20_000)).map {
            UInt8(truncatingIfNeeded: $0 &* 31 ^ number ^ ($0 >> 9))
          }
        }
      )
    }
    let answers = try send(segments, schedule: schedule, lanes: lanes)
    // Each of the 9 encrypted segments was taken by the sender and handed over.
    if schedule == .handovers { #expect(answers.no == 9) }
  }

  /// Parts of 0 to 40 bytes, 0 to 6 to a segment: the bytes short of a block
  /// span several parts when the run changes hands, some segments are
  /// shorter than a block, some are empty, and some stay with the sender to
  /// their end.
  @Test(arguments: Schedule.allCases, [1, 2])
  func runsOfTinyPartsChangeHandsAnywhere(_ schedule: Schedule, lanes: Int) throws {
    let folder = try ScratchFolder.make()
    let segments = (0..<61).map { index in
      (
        url: folder.appendingPathComponent("segment_\(index).ts"), material: index % 5 == 4 ? nil : material(index),
        parts: (0..<(index % 7)).map { number in
          (0..<((index * 13 + number * 7) % 41)).map { UInt8(truncatingIfNeeded: index &* 7 &+ number &* 3 &+ $0) }
        }
      )
    }
    _ = try send(segments, schedule: schedule, lanes: lanes)
  }

  /// A key the cipher refuses: the failure is reported from then on,
  /// whichever thread met it, and nothing of the segment reaches its file.
  @Test(arguments: [Schedule.sender, .writer])
  func aCipherFailureStopsTheWriter(_ schedule: Schedule) throws {
    let folder = try ScratchFolder.make()
    let url = folder.appendingPathComponent("segment_0.ts")
    var bad = material(0)
    bad.key.content.bytes.removeLast()
    let writer = try SegmentFileWriter(rendition: "main", checksums: false) { _ in schedule == .sender }
    var failures = 0
    for job in [
      SegmentFileWriter.Job.open(url, wholeSegment: bad), .bytes([1, 2, 3]), .bytes([4, 5]),
      .close(record("segment_0.ts")),
    ] {
      do { try writer.send(job) } catch { failures += 1 }
    }
    #expect(throws: PackError.self) { try writer.finish() }
    // The writer fails later, on its own thread: what was sent by then may have been queued without complaint.
    if schedule == .sender { #expect(failures == 4) }
    let written = (try? Data(contentsOf: url)) ?? Data()
    #expect(written.isEmpty)
  }

  enum Schedule: CaseIterable, Sendable {
    case sender, writer, packager, handovers

    /// Yes, no; yes, yes, no; yes, yes, yes, no; and again, for `handovers`.
    func rule(_ answers: Counter) -> ((Int) -> Bool)? {
      switch self {
      case .sender: { _ in true }
      case .writer: { _ in false }
      case .packager: nil
      case .handovers:
        { _ in
          answers.asked += 1
          let yes = ![2, 5, 0].contains(answers.asked % 9)
          if !yes { answers.no += 1 }
          return yes
        }
      }
    }
  }

  /// A failure in one lane is reported, and `finish()` still waits for the
  /// other lane's segments.
  @Test func aFailingLaneStopsTheRendition() throws {
    let folder = try ScratchFolder.make()
    var bad = material(0)
    bad.key.content.bytes.removeLast()
    let writer = try SegmentWriterLanes(rendition: "main", checksums: false, lanes: 2) { _ in false }
    // The healthy lane's segment comes in large parts (4 MiB): its queue still holds
    // several when the failure is known, and they take a while to write.
    let parts = [0: 1, 1: 8, 2: 1]
    for (index, material) in [bad, material(1), material(2)].enumerated() {
      try? writer.send(.open(folder.appendingPathComponent("segment_\(index).ts"), wholeSegment: material))
      for _ in 0..<(parts[index] ?? 0) { try? writer.send(.bytes(Array(repeating: UInt8(index), count: 4 << 20))) }
      try? writer.send(.close(record("segment_\(index).ts")))
    }
    #expect(throws: PackError.self) { try writer.finish() }
    let size = { (index: Int) in
      (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("segment_\(index).ts").path)[
        .size] as? Int) ?? 0
    }
    // Nothing of the segment whose encryption failed was written, clear or not.
    #expect(size(0) == 0)
    // The other lane wrote its segment to the end: 32 MiB and a block of padding.
    #expect(size(1) == 8 << 22 + 16)
  }

  /// A second lane only for copied video with whole-segment AES-128, and
  /// only where each rendition keeps a core for its muxing thread and one for
  /// each of two writers.
  @Test func aSecondLaneOnlyWhereACoreIsFreeForIt() {
    #expect(SegmentWriterLanes.count(encryptsWholeSegments: true, copies: true, renditions: 1, cores: 2) == 1)
    #expect(SegmentWriterLanes.count(encryptsWholeSegments: true, copies: true, renditions: 1, cores: 3) == 2)
    #expect(SegmentWriterLanes.count(encryptsWholeSegments: true, copies: true, renditions: 3, cores: 8) == 1)
    #expect(SegmentWriterLanes.count(encryptsWholeSegments: true, copies: true, renditions: 3, cores: 9) == 2)
    #expect(SegmentWriterLanes.count(encryptsWholeSegments: false, copies: true, renditions: 1, cores: 64) == 1)
    #expect(SegmentWriterLanes.count(encryptsWholeSegments: true, copies: false, renditions: 1, cores: 64) == 1)
  }

  /// A run that fails mid-segment closes its writers with the last segment
  /// open: the closed segments come back in order, whichever lane is short.
  @Test(arguments: [2, 3])
  func anUnclosedSegmentLeavesTheClosedOnesInOrder(closed: Int) throws {
    let folder = try ScratchFolder.make()
    let writer = try SegmentWriterLanes(rendition: "main", checksums: false, lanes: 2)
    for index in 0...closed {
      try writer.send(.open(folder.appendingPathComponent("segment_\(index).ts"), wholeSegment: material(index)))
      try writer.send(.bytes(Array(repeating: UInt8(index), count: 100)))
      if index < closed { try writer.send(.close(record("segment_\(index).ts"))) }
    }
    #expect(try writer.finish().map(\.uri) == (0..<closed).map { "segment_\($0).ts" })
  }

  /// Sends the segments as fast as the writer takes them, then checks every
  /// file against one CBC run over its parts, and its record.
  private func send(
    _ segments: [(url: URL, material: SegmentKeying.Material?, parts: [[UInt8]])], schedule: Schedule, lanes: Int
  ) throws -> Counter {
    let answers = Counter()
    let writer =
      try schedule.rule(answers).map {
        try SegmentWriterLanes(rendition: "main", checksums: true, lanes: lanes, senderEncrypts: $0)
      }
      ?? SegmentWriterLanes(rendition: "main", checksums: true, lanes: lanes)
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
      let wanted =
        try segment.material.map { try cipher.encryptPadded(plain, key: $0.key.content.bytes, iv: $0.iv) } ?? plain
      // A Bool, not the arrays: a failing comparison of arrays this long takes minutes to describe.
      let same = written == wanted
      #expect(same, "\(record.uri)")
      #expect(record.byteCount == wanted.count)
      #expect(record.sha256 == Hex.encode(try Digest.sha256(wanted)))
    }
    return answers
  }

  /// The schedule's questions and its noes (on the sending thread only).
  final class Counter: @unchecked Sendable {
    var asked = 0
    var no = 0
  }

  /// A key and an IV of their own for every segment.
  private func material(_ index: Int) -> SegmentKeying.Material {
    let bytes = { (salt: Int) in (0..<16).map { UInt8(truncatingIfNeeded: index &* 97 &+ salt &* 13 &+ $0) } }
    let key = KeyRing.Key(content: ContentKey(id: bytes(1), bytes: bytes(2)), file: "k.key", period: 0)
    return SegmentKeying.Material(key: key, iv: bytes(3), tag: .none)
  }

  private func record(_ uri: String) -> SegmentRecord {
    SegmentRecord(
      uri: uri, startTicks: 0, durationTicks: 0, byteCount: 0, sha256: nil, key: .none, keyID: nil, keyFile: nil,
      period: 0,
      iv: nil, keyframes: [], discontinuity: false)
  }
}
