import Synchronization

/// Paces body bytes to a throughput schedule. Each pace (one connection, or
/// one rendition shared by every connection that fetches it) keeps the time
/// at which its next byte may leave; a write of n bytes at r bytes per second
/// moves that time on by n / r. Shared paces therefore split the rate between
/// concurrent requests, as a bottleneck link would.
///
/// A sender wakes up late on a busy machine; a pace that fell behind by less
/// than `catchUp` goes on from the time it was due, so that the next bytes
/// leave at once and the mean rate stays the schedule's. A longer gap is a
/// pace left idle, which banks nothing.
final class Pacers: Sendable {
  private let nextSend = Mutex<[String: ContinuousClock.Instant]>([:])
  static let catchUp = Duration.milliseconds(250)

  /// Reserves `bytes` on the pace named `key` and returns when they may be sent.
  func reserve(
    bytes: Int, key: String, throughput: Throughput, origin: ContinuousClock.Instant,
    now: ContinuousClock.Instant = .now
  ) -> ContinuousClock.Instant {
    nextSend.withLock { table in
      let due = table[key] ?? now
      let start = now - due < Self.catchUp ? due : now
      let rate = throughput.bytesPerSecond(at: ScenarioState.seconds(start - origin))
      let end = start + Self.interval(bytes: bytes, rate: rate)
      table[key] = end
      return end
    }
  }

  /// Forgets a connection's pace once it is closed.
  func forget(key: String) {
    _ = nextSend.withLock { $0.removeValue(forKey: key) }
  }

  /// The time `bytes` take at `rate`, for any rate (NaN, zero, negative or
  /// huge rates are paced at the nearest one `ScenarioLimits` allows) and at
  /// most a year, so that no conversion can trap.
  static func interval(bytes: Int, rate: Double) -> Duration {
    let nanoseconds = Double(max(0, bytes)) / ScenarioLimits.clampedRate(rate) * 1e9
    return .nanoseconds(Int64(min(nanoseconds, longestInterval).rounded()))
  }

  private static let longestInterval = 365 * 86_400 * 1e9

  /// Bytes per write at `rate`: about 20 writes a second, so that the pace is smooth, within 1 KiB…64 KiB.
  static func chunkSize(rate: Double) -> Int {
    let largest = 64.0 * 1024
    return min(Int(largest), max(1024, Int(min(ScenarioLimits.clampedRate(rate) / 20, largest))))
  }
}
