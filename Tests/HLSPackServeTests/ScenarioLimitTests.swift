import Foundation
import Testing

@testable import HLSPackServe

/// A scenario comes from anyone who can reach `POST /_hlspack/scenario`:
/// numbers out of range are refused at load naming their JSON path, and the
/// code that uses them stays total for any value that gets through.
@Suite("serve: scenario limits")
struct ScenarioLimitTests {
  static func problem(_ action: String, match: String = "{}") -> String? {
    do {
      _ = try Scenario.load(Data(#"{"rules": [{"match": \#(match), "action": \#(action)}]}"#.utf8), source: "s.json")
      return nil
    } catch {
      return "\(error)"
    }
  }

  static func pace(_ rate: String) -> String { #"{"throughput": {"schedule": [{"bytes_per_second": \#(rate)}]}}"# }

  @Test(arguments: ["1e-9", "1e-7", "1e-12", "2e20", "1e13", "0", "-1", "0.5"])
  func ratesOutOfRangeAreRefusedWithTheirPath(rate: String) {
    let message = Self.problem(Self.pace(rate))
    #expect(
      message?.contains("s.json: invalid scenario: rules[0].action.throughput.schedule[0].bytes_per_second") == true,
      "\(message ?? "accepted")")
  }

  @Test func ratesInRangeLoad() {
    #expect(Self.problem(Self.pace("1")) == nil)
    #expect(Self.problem(Self.pace("1e12")) == nil)
    #expect(Self.problem(Self.pace("750000")) == nil)
  }

  @Test func everyOtherNumberIsCheckedWithItsPath() {
    let refused: [(action: String, match: String, path: String)] = [
      (#"{"status": 100}"#, "{}", "rules[0].action.status"),
      (#"{"status": 199}"#, "{}", "rules[0].action.status"),
      (#"{"status": 600}"#, "{}", "rules[0].action.status"),
      (#"{"status": -1}"#, "{}", "rules[0].action.status"),
      (#"{"delay_ms": -1}"#, "{}", "rules[0].action.delay_ms"),
      (#"{"delay_ms": 9223372036854775807}"#, "{}", "rules[0].action.delay_ms"),
      (#"{"stall": {"after_bytes": -5, "ms": 1}}"#, "{}", "rules[0].action.stall.after_bytes"),
      (#"{"stall": {"after_bytes": 5, "ms": 604800001}}"#, "{}", "rules[0].action.stall.ms"),
      (#"{"truncate_bytes": -1}"#, "{}", "rules[0].action.truncate_bytes"),
      (
        #"{"throughput": {"schedule": [{"bytes_per_second": 10, "seconds": -1}, {"bytes_per_second": 10}]}}"#, "{}",
        "rules[0].action.throughput.schedule[0].seconds"
      ),
      (#"{}"#, #"{"from_seconds": -1}"#, "rules[0].match.from_seconds"),
      (#"{}"#, #"{"until_seconds": 1e300}"#, "rules[0].match.until_seconds"),
      (#"{}"#, #"{"segment": [1, -2]}"#, "rules[0].match.segment[1]"),
      (#"{}"#, #"{"nth": [2, 0]}"#, "rules[0].match.nth[1]"),
      (#"{"require": [{"header": "a b"}]}"#, "{}", "rules[0].action.require[0].header"),
    ]
    for (action, match, path) in refused {
      let message = Self.problem(action, match: match)
      #expect(message?.contains("invalid scenario: \(path):") == true, "\(action) \(match): \(message ?? "accepted")")
    }
    #expect(Self.problem(#"{"status": 204, "delay_ms": 604800000}"#) == nil)
    #expect(Self.problem(#"{"stall": {"after_bytes": 0, "ms": 0}}"#, match: #"{"from_seconds": 0}"#) == nil)
  }

  @Test(arguments: [
    "Content-Length", "content-length", "Transfer-Encoding", "Connection", "Keep-Alive", "Upgrade", "TE", "Trailer",
    "Proxy-Connection",
  ])
  func framingHeadersCannotBeSet(name: String) {
    let message = Self.problem(#"{"headers": {"X-Fine": "1", "\#(name)": "5"}}"#)
    #expect(
      message?.contains("rules[0].action.headers.\(name): the server frames the message itself") == true,
      "\(message ?? "accepted")")
  }

  @Test func headerNamesAndValuesMustBeWellFormed() {
    #expect(Self.problem(#"{"headers": {"Bad Name": "1"}}"#)?.contains("\"Bad Name\" is not a header name") == true)
    #expect(Self.problem(#"{"headers": {"X-A": "1\r\nX-B: 2"}}"#)?.contains("rules[0].action.headers.X-A") == true)
    #expect(Self.problem(#"{"headers": {"Cache-Control": "no-store", "X-Tab": "a\tb"}}"#) == nil)
  }

  /// The pacers take any rate and byte count without trapping, even ones the loader refuses.
  @Test func pacingIsTotal() {
    let rates: [Double] = [.nan, .infinity, -.infinity, 0, -1, 1e-12, 1e-9, 2e20, .greatestFiniteMagnitude, 1]
    for rate in rates {
      for bytes in [0, 1, 65_536, Int.max, Int.min] {
        let interval = Pacers.interval(bytes: bytes, rate: rate)
        #expect(interval >= .zero && interval <= .seconds(365 * 86_400), "\(bytes) B at \(rate)")
      }
      #expect((1024...65_536).contains(Pacers.chunkSize(rate: rate)), "\(rate)")
    }
    #expect(Pacers.interval(bytes: 1000, rate: 2000) == .milliseconds(500))
    let pacers = Pacers()
    let hostile = Throughput(
      per: nil, schedule: [.init(bytesPerSecond: 1e-12, seconds: .nan), .init(bytesPerSecond: 2e20)])
    let now = ContinuousClock.now
    let due = pacers.reserve(bytes: 65_536, key: "k", throughput: hostile, origin: now, now: now)
    #expect(due <= now + .seconds(65_536))
  }

  @Test func delaysAddUpToTheLongestAtMost() {
    var plan = ResponsePlan()
    plan.add(RuleAction(delayMs: .max), named: "a")
    plan.add(RuleAction(delayMs: .max), named: "b")
    plan.add(RuleAction(delayMs: .min), named: "c")
    #expect(plan.delayMs == ScenarioLimits.longestMilliseconds)
  }

  @Test func aScenarioFileIsReadUpToItsLimitAndNeverAFolder() throws {
    #expect(throws: ServeError.scenarioUnreadable(path: "/dev/zero", reason: "larger than 1048576 bytes")) {
      try Scenario.read(path: "/dev/zero")
    }
    let folder = FileManager.default.temporaryDirectory.path
    #expect(throws: ServeError.scenarioUnreadable(path: folder, reason: "a folder, not a file")) {
      try Scenario.read(path: folder)
    }
  }

  /// 10 000 requests for distinct missing paths, and 10 000 distinct served
  /// ones, leave the stats small: per-path tables are bounded.
  @Test func statsStayBoundedWhateverThePaths() throws {
    let stats = ServeStats()
    for index in 0..<10_000 {
      stats.record(path: nil, kind: .other, status: 404, bytes: 10, faults: [])
      stats.record(path: "/k/\(index).key", kind: .key, status: 200, bytes: 16, faults: [])
    }
    stats.record(path: "/" + String(repeating: "a", count: 5000), kind: .segment, status: 200, bytes: 1, faults: [])
    let json = try stats.json(bodyBytesHeld: 0)
    #expect(json.count < 64_000, "\(json.count) bytes")
    let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    let paths = try #require(object["paths"] as? [String: Int])
    #expect(paths[ServeStats.notServed] == 10_000)
    #expect(paths["/k/0.key"] == 1)
    #expect(paths[ServeStats.otherPaths] == 10_000 - ServeStats.maximumPaths + 1)
    #expect(paths.count == ServeStats.maximumPaths + 2)
    #expect((object["key_fetches"] as? [String: Int])?.count == ServeStats.maximumPaths + 1)
    #expect(object["requests"] as? Int == 20_001)
  }
}
