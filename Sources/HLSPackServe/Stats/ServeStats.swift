import Foundation
import Synchronization

/// What `GET /_hlspack/stats` reports: requests per path, key fetches per key
/// path, body bytes sent, faults injected per kind, and responses per status.
///
/// Anyone can ask for paths that do not exist, so the per-path tables are
/// bounded: a request that named nothing served (a 404 or 403 of the folder)
/// counts under `notServed`; a path beyond the first `maximumPaths` of a
/// table, or longer than `longestPath`, under `otherPaths`.
final class ServeStats: Sendable {
  static let notServed = "(not served)"
  static let otherPaths = "(other paths)"
  static let maximumPaths = 1000
  static let longestPath = 1024

  private struct Counts {
    var requests = 0
    var bytesServed = 0
    var paths: [String: Int] = [:]
    var keyFetches: [String: Int] = [:]
    var faults: [String: Int] = [:]
    var statuses: [String: Int] = [:]
  }
  private let counts = Mutex(Counts())

  /// `path` is nil for a request that named nothing served.
  func record(path: String?, kind: RequestKind, status: Int?, bytes: Int, faults: [String]) {
    counts.withLock { counts in
      counts.requests += 1
      counts.bytesServed += bytes
      Self.count(path, in: &counts.paths)
      if kind == .key { Self.count(path, in: &counts.keyFetches) }
      for fault in faults { counts.faults[fault, default: 0] += 1 }
      counts.statuses[status.map(String.init) ?? "closed", default: 0] += 1
    }
  }

  private static func count(_ path: String?, in table: inout [String: Int]) {
    guard let path else {
      table[notServed, default: 0] += 1
      return
    }
    let buckets = (table[notServed] == nil ? 0 : 1) + (table[otherPaths] == nil ? 0 : 1)
    let fits = path.utf8.count <= longestPath && (table[path] != nil || table.count - buckets < maximumPaths)
    table[fits ? path : otherPaths, default: 0] += 1
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
