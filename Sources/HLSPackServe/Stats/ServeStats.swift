import Foundation
import Synchronization

/// What `GET /_hlspack/stats` reports: requests per path, key fetches per key
/// path, body bytes sent, faults injected per kind, and responses per status.
final class ServeStats: Sendable {
  private struct Counts {
    var requests = 0
    var bytesServed = 0
    var paths: [String: Int] = [:]
    var keyFetches: [String: Int] = [:]
    var faults: [String: Int] = [:]
    var statuses: [String: Int] = [:]
  }
  private let counts = Mutex(Counts())

  func record(path: String, kind: RequestKind, status: Int?, bytes: Int, faults: [String]) {
    counts.withLock { counts in
      counts.requests += 1
      counts.bytesServed += bytes
      counts.paths[path, default: 0] += 1
      if kind == .key { counts.keyFetches[path, default: 0] += 1 }
      for fault in faults { counts.faults[fault, default: 0] += 1 }
      counts.statuses[status.map(String.init) ?? "closed", default: 0] += 1
    }
  }

  func reset() { counts.withLock { $0 = Counts() } }

  /// The counts as JSON with sorted keys, with the response body bytes held
  /// in memory now (`BodyBudget`), which falls back to 0 when no body is on its way.
  func json(bodyBytesHeld: Int) throws -> Data {
    let counts = counts.withLock { $0 }
    let object: [String: Any] = [
      "requests": counts.requests, "bytes_served": counts.bytesServed, "paths": counts.paths,
      "key_fetches": counts.keyFetches, "faults": counts.faults, "statuses": counts.statuses,
      "body_bytes_held": bodyBytesHeld,
    ]
    return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
  }
}
