import Foundation
import HLSPackCore

/// One rendition's segment file writers, taking its segments in turn: with
/// two lanes, one writer encrypts and writes a segment while the other still
/// works on the one before.
///
/// A segment is one CBC run, so one writer encrypts at most one core's worth,
/// nearly as much CPU as muxing copied packets: a second lane lets a third
/// core take that share, and the muxing thread still helps a lane that falls
/// behind. Where no core is left for it, the second writer only competes with
/// the muxing thread, so `count(encryptsWholeSegments:copies:renditions:cores:)`
/// keeps one lane there (docs/design/segment-writers.md).
final class SegmentWriterLanes {
  private let lanes: [SegmentFileWriter]
  /// Segments opened so far; segment `n` goes to lane `n % lanes.count`.
  private var opened = 0

  init(
    rendition: String, checksums: Bool, singleFile: Bool = false, lanes count: Int,
    senderEncrypts: @escaping (_ waitingParts: Int) -> Bool = SegmentFileWriter.defaultSenderEncrypts
  ) throws {
    precondition(count >= 1, "a rendition needs a segment writer")
    // One file is written in order, by one writer.
    let count = singleFile ? 1 : count
    var lanes: [SegmentFileWriter] = []
    do {
      for _ in 0..<count {
        lanes.append(try SegmentFileWriter(
            rendition: rendition, checksums: checksums, singleFile: singleFile, senderEncrypts: senderEncrypts))
      }
    } catch {
      // The lanes made so far have started their threads: end them.
      _ = try? lanes.mapAll { try $0.finish() }
      throw error
    }
    self.lanes = lanes
  }

  /// Two lanes only for whole-segment AES-128 of copied video, where muxing
  /// is light enough for encryption to hold it back (a transcoder's encoders
  /// keep every core busy anyway), and only when every rendition copied at
  /// once, each on its own muxing thread, has a core for that thread and one
  /// for each writer. `cores` is asked only then: it reads /proc and /sys.
  static func count(encryptsWholeSegments: Bool, copies: Bool, renditions: Int, cores: @autoclosure () -> Int) -> Int {
    guard encryptsWholeSegments, copies else { return 1 }
    return cores() >= 3 * renditions ? 2 : 1
  }

  /// Queues a job on the lane of the segment it belongs to; throws that
  /// lane's first failure (another lane's surfaces at its next segment, at
  /// the latest from `finish()`).
  func send(_ job: consuming SegmentFileWriter.Job) throws {
    if case .open = job { opened += 1 }
    try lanes[max(opened - 1, 0) % lanes.count].send(job)
  }

  /// Waits until every lane has written its segments; their records in
  /// segment order, or the first lane's failure.
  func finish() throws -> [SegmentRecord] {
    // Every lane is finished, failed or not, so that no writing thread outlives the rendition.
    let recordsByLane = try lanes.mapAll { try $0.finish() }
    var records: [SegmentRecord] = []
    while records.count / lanes.count < recordsByLane[records.count % lanes.count].count {
      records.append(recordsByLane[records.count % lanes.count][records.count / lanes.count])
    }
    // Segments close in order, so no lane can hold more than the lane before it.
    precondition(records.count == recordsByLane.reduce(0) { $0 + $1.count }, "a lane recorded a segment out of turn")
    return records
  }
}
