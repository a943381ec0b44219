import Foundation
import HLSPackTestSupport
import Testing

extension ServeEndToEnd {
  /// The ffmpeg CLI downloads the AES-128 package's three segments (about
  /// 690, 690 and 350 kB), one after the other, while a schedule paces them:
  /// 350 000 B/s for 3.9 s, then 150 000 B/s. Each segment's rate, its bytes
  /// over its duration in the request log, is within 10 % of the schedule's
  /// mean rate over that transfer. Segment 0 (about 2 s) lies in the first
  /// step and segment 2 (about 2.3 s) in the second, as long as ffmpeg asks
  /// for segment 0 within 1.9 s of the scenario's load (1.1 s on a 2-core
  /// machine at load 15); segment 1 spans the change. Every transfer lasts
  /// over 1 s, so that a loaded machine's scheduling delays stay small beside it.
  @Suite("serve: a throughput schedule measured on the ffmpeg CLI's downloads")
  struct ScheduledDownloadTests {
    struct Step {
      var bytesPerSecond: Double
      /// nil for the last step, which holds for ever.
      var seconds: Double?
    }

    static let schedule = [Step(bytesPerSecond: 350_000, seconds: 3.9), Step(bytesPerSecond: 150_000)]

    static var scenario: String {
      let steps = schedule.map { step in
        step.seconds.map { #"{"bytes_per_second": \#(step.bytesPerSecond), "seconds": \#($0)}"# }
          ?? #"{"bytes_per_second": \#(step.bytesPerSecond)}"#
      }
      return #"""
        {"rules": [{"match": {"kind": "segment"},
                    "action": {"throughput": {"schedule": [\#(steps.joined(separator: ", "))]}}}]}
        """#
    }

    /// Seconds that the schedule takes to send `bytes`, starting `start` seconds after it was loaded.
    static func secondsToSend(_ bytes: Double, from start: Double) -> Double {
      var now = start
      var left = bytes
      var stepStart = 0.0
      for step in schedule {
        let stepEnd = step.seconds.map { stepStart + $0 } ?? .infinity
        if now < stepEnd {
          let sendable = (stepEnd - now) * step.bytesPerSecond
          if sendable >= left { return now + left / step.bytesPerSecond - start }
          left -= sendable
          now = stepEnd
        }
        stepStart = stepEnd
      }
      return now - start
    }

    @Test func eachSegmentsRateFollowsTheSchedule() throws {
      let server = try ServerProcess(folder: try ServeFixtures.aesPackage())
      let posting = Date()
      try ThroughputTests.post(Self.scenario, to: server)
      // The server starts the schedule when it takes the scenario, between these two instants.
      let origin = posting.addingTimeInterval(Date().timeIntervalSince(posting) / 2)
      let downloaded = try Command.run(
        "ffmpeg",
        [
          "-hide_banner", "-nostdin", "-v", "error", "-rw_timeout", "20000000", "-i",
          server.base + "/sample/master.m3u8", "-map", "0", "-c", "copy", "-f", "null", "-",
        ])
      #expect(downloaded.status == 0, "\(downloaded.stderr)")

      let segments = try server.log().filter { $0["kind"] as? String == "segment" }
      #expect(segments.compactMap { $0["segment"] as? Int } == [0, 1, 2])
      let firstStepEnd = Self.schedule[0].seconds ?? 0
      var spans: [(start: Double, end: Double)] = []
      for entry in segments {
        let transfer = try Transfer(entry, origin: origin)
        let expected = transfer.bytes / Self.secondsToSend(transfer.bytes, from: transfer.start)
        let figures =
          "segment \(entry["segment"] ?? "?"): \(Int(transfer.bytes)) bytes from \(transfer.start) s"
          + " in \(transfer.seconds) s, \(Int(transfer.rate)) B/s, schedule \(Int(expected)) B/s"
        #expect(transfer.seconds >= 1, "\(figures)")
        #expect(abs(transfer.rate / expected - 1) <= 0.1, "\(figures)")
        spans.append((transfer.start, transfer.start + transfer.seconds))
      }
      #expect(spans.first.map { $0.end < firstStepEnd } == true, "segment 0 in the first step: \(spans)")
      #expect(spans.last.map { $0.start > firstStepEnd } == true, "segment 2 in the second step: \(spans)")
    }
  }
}

/// One response in the request log: its bytes, and when it started and how long it took.
private struct Transfer {
  var bytes: Double
  /// Seconds after `origin` at which the request arrived.
  var start: Double
  var seconds: Double
  var rate: Double { bytes / seconds }

  init(_ entry: [String: Any], origin: Date) throws {
    let clock = ISO8601DateFormatter()
    clock.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    guard let bytes = entry["bytes"] as? Int, let milliseconds = entry["duration_ms"] as? Double,
      let time = (entry["time"] as? String).flatMap(clock.date(from:)), milliseconds > 0
    else { throw FixtureError("a log entry without bytes, duration_ms or time: \(entry)") }
    self.bytes = Double(bytes)
    start = time.timeIntervalSince(origin)
    seconds = milliseconds / 1000
  }
}
