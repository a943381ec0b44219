import HLSPackCore

/// A `SegmentSink` that keeps everything a muxer hands it, in the order it came.
final class RecordingSegmentSink: SegmentSink {
  enum Call: Equatable {
    case initialization
    case bytes
    case segment
  }

  /// One ended segment: the parts that arrived since the previous one ended.
  struct Segment {
    var parts: [[UInt8]]
    var segment: MediaSegment
    var bytes: [UInt8] { parts.flatMap { $0 } }
  }

  private(set) var calls: [Call] = []
  private(set) var initializations: [[UInt8]] = []
  private(set) var segments: [Segment] = []
  /// Parts that no segment has claimed yet: none once the muxer has finished.
  private(set) var openParts: [[UInt8]] = []
  /// Every byte that arrived through `acceptBytes`.
  private(set) var byteCount = 0

  func acceptInitialization(_ bytes: [UInt8]) throws {
    calls.append(.initialization)
    initializations.append(bytes)
  }

  func acceptBytes(_ bytes: [UInt8]) throws {
    calls.append(.bytes)
    openParts.append(bytes)
    byteCount += bytes.count
  }

  func accept(_ segment: MediaSegment) throws {
    calls.append(.segment)
    segments.append(Segment(parts: openParts, segment: segment))
    openParts = []
  }
}
