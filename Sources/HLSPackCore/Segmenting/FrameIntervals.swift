/// The frame interval of a stream, from presentation timestamps given in
/// decode order. It is the interval of the fastest frames: FRAME-RATE is the
/// maximum rate (RFC 8216bis §4.4.6.2), and the last frame of a variable-rate stream
/// lasts one such interval, not the average gap. Intervals within `tolerance`
/// of the smallest are averaged, so that timestamps rounded to a coarse time
/// base (29.97 fps in milliseconds: 33, 34, 33 ms ...) give 33.367 ms.
public struct FrameIntervals {
  private let tolerance: Int64
  /// Timestamps not yet in presentation order, sorted; B-frames reorder a few.
  private var pending: [Int64] = []
  private var lastPresented: Int64?
  /// How often each gap occurred; only the smallest ones matter.
  private var gaps: [Int64: Int] = [:]
  private static let reorderWindow = 16
  private static let keptGaps = 64

  /// `tolerance`: one tick of the source's time base, in the timestamps' unit.
  public init(tolerance: Int64) {
    self.tolerance = max(tolerance, 0)
  }

  public mutating func add(_ pts: Int64) {
    let index = pending.firstIndex { $0 > pts } ?? pending.endIndex
    pending.insert(pts, at: index)
    if pending.count > Self.reorderWindow { present(pending.removeFirst()) }
  }

  /// The interval, in the timestamps' unit; nil before two distinct timestamps.
  public var interval: Double? {
    var all = self
    for pts in all.pending { all.present(pts) }
    guard let smallest = all.gaps.keys.min() else { return nil }
    let close = all.gaps.filter { $0.key <= smallest + tolerance }
    let count = close.values.reduce(0, +)
    return Double(close.reduce(Int64(0)) { $0 + $1.key * Int64($1.value) }) / Double(count)
  }

  private mutating func present(_ pts: Int64) {
    defer { lastPresented = max(lastPresented ?? pts, pts) }
    guard let last = lastPresented, pts > last else { return }
    gaps[pts - last, default: 0] += 1
    if gaps.count > Self.keptGaps, let largest = gaps.keys.max() { gaps[largest] = nil }
  }
}
