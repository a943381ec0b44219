import Synchronization

/// Paces body bytes to a throughput schedule. Each pace (one connection, or
/// one rendition shared by every connection that fetches it) keeps the time
/// at which its next byte may leave; a write of n bytes at r bytes per second
/// moves that time on by n / r. Shared paces therefore split the rate between
/// concurrent requests, as a bottleneck link would.
final class Pacers: Sendable {
  private let nextSend = Mutex<[String: ContinuousClock.Instant]>([:])

  /// Reserves `bytes` on the pace named `key` and returns when they may be sent.
  func reserve(
    bytes: Int, key: String, throughput: Throughput, origin: ContinuousClock.Instant
  ) -> ContinuousClock.Instant {
    nextSend.withLock { table in
      let now = ContinuousClock.now
      let start = max(table[key] ?? now, now)
      let rate = throughput.bytesPerSecond(at: ScenarioState.seconds(start - origin))
      let end = start + .nanoseconds(Int64((Double(bytes) / rate * 1e9).rounded()))
      table[key] = end
      return end
    }
  }

  /// Forgets a connection's pace once it is closed.
  func forget(key: String) {
    _ = nextSend.withLock { $0.removeValue(forKey: key) }
  }

  /// Bytes per write at `rate`: about 20 writes a second, so that the pace is smooth, within 1 KiB…64 KiB.
  static func chunkSize(rate: Double) -> Int {
    min(64 * 1024, max(1024, Int(rate / 20)))
  }
}
