import Foundation
import HLSPackTestSupport
import Testing

extension ServeEndToEnd {
  /// A throughput schedule paces what curl measures within 10 %, per connection
  /// and shared by a rendition's connections. The pace is read from the
  /// response's first byte (its head, sent at once) to the body's last, so that
  /// connection set-up on a loaded machine does not count.
  @Suite("serve: throughput schedules")
  struct ThroughputTests {
    static let size = 200_000

    static func folder() throws -> URL {
      let root = try ServeFixtures.tree()
      let rendition = root.appendingPathComponent("ladder/low")
      try FileManager.default.createDirectory(at: rendition, withIntermediateDirectories: true)
      for index in 0..<2 {
        try Data(repeating: UInt8(index), count: size).write(
          to: rendition.appendingPathComponent("segment_0000\(index).ts"))
      }
      return root
    }

    static func post(_ scenario: String, to server: ServerProcess) throws {
      let posted = try Curl.run(server.base + "/_hlspack/scenario", ["-X", "POST", "--data-binary", scenario])
      try #require(posted.status == 200, "\(posted.text)")
    }

    @Test func downloadRateFollowsTheScheduleStepByStep() throws {
      let server = try ServerProcess(folder: try Self.folder())
      try Self.post(
        #"""
        {"rules": [{"match": {"kind": "segment"}, "action": {"throughput": {"schedule": [
          {"bytes_per_second": 200000, "seconds": 3}, {"bytes_per_second": 50000}]}}}]}
        """#, to: server)
      let started = Date()
      let fast = try Curl.run(server.base + "/ladder/low/segment_00000.ts")
      #expect(fast.body.count == Self.size)
      // 200 000 bytes at 200 000 B/s: 1 s.
      let fastBody = fast.seconds - fast.firstByteSeconds
      #expect(abs(fastBody - 1.0) <= 0.1, "\(fastBody) s in the first step")
      Thread.sleep(forTimeInterval: max(0, 3.2 - Date().timeIntervalSince(started)))
      let slow = try Curl.run(server.base + "/ladder/low/segment_00001.ts", ["-r", "0-99999"])
      #expect(slow.body.count == 100_000)
      // 100 000 bytes at 50 000 B/s: 2 s.
      let slowBody = slow.seconds - slow.firstByteSeconds
      #expect(abs(slowBody - 2.0) <= 0.2, "\(slowBody) s in the second step")
      let entries = try (0..<2).flatMap { try server.entries(path: "/ladder/low/segment_0000\($0).ts") }
      #expect(entries.map { $0["faults"] as? [String] ?? [] } == [["throughput"], ["throughput"]])
      #expect(entries.map { $0["bytes"] as? Int } == [Self.size, 100_000])
    }

    @Test func aRenditionsPaceIsSharedByItsConnections() throws {
      let server = try ServerProcess(folder: try Self.folder())
      try Self.post(
        #"""
        {"rules": [{"match": {"rendition": "low"}, "action": {"throughput": {"per": "rendition",
          "schedule": [{"bytes_per_second": 400000}]}}}]}
        """#, to: server)
      let times = Locked<[Double]>([])
      let base = server.base
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        let got = try? Curl.run(base + "/ladder/low/segment_0000\(index).ts")
        times.withLock { $0.append((got?.seconds ?? 0) - (got?.firstByteSeconds ?? 0)) }
      }
      // 400 000 bytes in all at 400 000 B/s: both end after about 1 s (0.5 s each if paced per connection).
      let slowest = times.withLock { $0.max() ?? 0 }
      #expect(abs(slowest - 1.0) <= 0.1, "\(times.withLock { $0 }) s")
      let entries = try (0..<2).flatMap { try server.entries(path: "/ladder/low/segment_0000\($0).ts") }
      #expect(entries.count == 2)
      for entry in entries {
        #expect(entry["rendition"] as? String == "low" && entry["status"] as? Int == 200, "\(entry)")
        #expect(entry["faults"] as? [String] == ["throughput"] && entry["rules"] as? [String] == ["rules[0]"])
      }
    }
  }
}

/// A value shared by concurrent test closures.
final class Locked<Value>: @unchecked Sendable {
  private var value: Value
  private let lock = NSLock()
  init(_ value: Value) { self.value = value }
  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}
