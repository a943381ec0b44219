import Foundation
import HLSPackTestSupport
import Testing

extension ServeEndToEnd {
  /// Each fault a scenario can inject, as curl sees it and as the request log records it.
  @Suite("serve: scenario faults")
  struct ScenarioFaultTests {
    static let segment = "/src/segment_00003.ts"

    static func server(_ rules: String) throws -> ServerProcess {
      let scenario = try ServeFixtures.scenario(#"{"rules": [\#(rules)]}"#)
      return try ServerProcess(folder: try ServeFixtures.tree(), arguments: ["--scenario", scenario])
    }

    @Test func requirementsAnswer401WhenMissingAnd403WhenWrong() throws {
      let server = try Self.server(
        #"""
        {"match": {"kind": "key"}, "action": {"require": [{"cookie": "session", "value": "s1"}, {"query": "token"}]}}
        """#)
      let key = server.base + "/keys/k.key"
      #expect(try Curl.run(key).status == 401)
      #expect(try Curl.run(key + "?token=abc", ["-H", "Cookie: session=s2"]).status == 403)
      let granted = try Curl.run(key + "?token=abc", ["-H", "Cookie: a=1; session=s1"])
      #expect(granted.status == 200)
      #expect(granted.body == ServeFixtures.keyBytes)
      #expect(try Curl.run(server.base + Self.segment).status == 200, "rules for keys leave segments alone")

      let entries = try server.entries(path: "/keys/k.key", atLeast: 3)
      #expect(entries.map { $0["status"] as? Int } == [401, 403, 200])
      #expect(entries.map { $0["faults"] as? [String] ?? [] } == [["unauthorized"], ["forbidden"], []])
      #expect(entries.allSatisfy { $0["rules"] as? [String] == ["rules[0]"] })
      #expect(entries[2]["query"] as? String == "token=***")
      #expect((entries[2]["headers"] as? [String: String])?["cookie"] == "a=***; session=***")
    }

    @Test func statusForTheNthRequestOnly() throws {
      let server = try Self.server(#"{"match": {"kind": "segment", "nth": [1, 2]}, "action": {"status": 503}}"#)
      let statuses = try (0..<3).map { _ in try Curl.run(server.base + Self.segment).status }
      #expect(statuses == [503, 503, 200])
      let entries = try server.entries(path: Self.segment, atLeast: 3)
      #expect(entries.map { $0["faults"] as? [String] ?? [] } == [["status"], ["status"], []])
    }

    @Test func delayAndAddedHeaders() throws {
      let server = try Self.server(
        #"{"match": {"path": "src/*.ts"}, "action": {"delay_ms": 400, "headers": {"Cache-Control": "no-store"}}}"#)
      let got = try Curl.run(server.base + Self.segment)
      #expect(got.status == 200)
      #expect(got.seconds >= 0.4)
      #expect(got.headers["cache-control"] == "no-store")
      let entry = try #require(server.entries(path: Self.segment).first)
      #expect((entry["duration_ms"] as? Double ?? 0) >= 400)
      #expect(entry["faults"] as? [String] == ["delay"])
      #expect(entry["rules"] as? [String] == ["rules[0]"], "the rule that added the header")
    }

    @Test func stallMidBodyThenTheRest() throws {
      let server = try Self.server(
        #"{"match": {"segment": [3]}, "action": {"stall": {"after_bytes": 500, "ms": 600}}}"#)
      let got = try Curl.run(server.base + Self.segment)
      #expect(got.status == 200)
      #expect(got.body == ServeFixtures.segmentBytes)
      #expect(got.seconds >= 0.6)
      let entry = try #require(server.entries(path: Self.segment).first)
      #expect(entry["faults"] as? [String] == ["stall"])
      #expect(entry["bytes"] as? Int == 1000)
    }

    @Test func truncatedBodyAndClosedConnection() throws {
      let server = try Self.server(
        #"""
        {"match": {"kind": "segment"}, "action": {"truncate_bytes": 300}},
        {"match": {"kind": "media"}, "action": {"close_connection": true}}
        """#)
      let cut = try Curl.run(server.base + Self.segment)
      #expect(cut.exitCode == 18, "curl: partial file \(cut.stderr)")
      #expect(cut.body == ServeFixtures.segmentBytes.prefix(300))
      let entry = try #require(server.entries(path: Self.segment).first)
      #expect(entry["bytes"] as? Int == 300)
      #expect(entry["faults"] as? [String] == ["truncate"])

      let closed = try Curl.run(server.base + "/src/index.m3u8")
      #expect(closed.exitCode == 52, "curl: empty reply \(closed.stderr)")
      let closedEntry = try #require(server.entries(path: "/src/index.m3u8").first)
      #expect(closedEntry["status"] is NSNull)
      #expect(closedEntry["faults"] as? [String] == ["close_connection"])
    }

    @Test(arguments: [("wrong", 16), ("short", 15), ("long", 17)])
    func keyFaults(fault: String, length: Int) throws {
      let server = try Self.server(#"{"match": {"kind": "key"}, "action": {"key": "\#(fault)"}}"#)
      let got = try Curl.run(server.base + "/keys/k.key")
      #expect(got.status == 200)
      #expect(got.body.count == length)
      #expect(got.body != ServeFixtures.keyBytes)
      if fault == "wrong" { #expect(got.body == Data(ServeFixtures.keyBytes.map { ~$0 })) }
      let entry = try #require(server.entries(path: "/keys/k.key").first)
      #expect(entry["faults"] as? [String] == ["key_\(fault)"])
      #expect(entry["status"] as? Int == 200)
      #expect(entry["bytes"] as? Int == length)
    }

    @Test func timeWindowAndScenarioSwapAndStats() throws {
      let server = try Self.server(
        #"{"match": {"kind": "master", "from_seconds": 0, "until_seconds": 1}, "action": {"status": 404}}"#)
      #expect(try Curl.run(server.base + "/master.m3u8").status == 404)
      Thread.sleep(forTimeInterval: 1.1)
      #expect(try Curl.run(server.base + "/master.m3u8").status == 200)

      let swapped = try Curl.run(
        server.base + "/_hlspack/scenario",
        ["-X", "POST", "--data-binary", #"{"rules": [{"match": {"kind": "key"}, "action": {"status": 500}}]}"#])
      #expect(swapped.status == 200, "\(swapped.text)")
      #expect(try Curl.run(server.base + "/keys/k.key").status == 500)
      let invalid = try Curl.run(
        server.base + "/_hlspack/scenario",
        ["-X", "POST", "--data-binary", #"{"rules": [{"match": {}, "action": {"delay": 1}}]}"#])
      #expect(invalid.status == 400)
      #expect(invalid.text.contains("unknown key \"delay\""), "\(invalid.text)")

      let stats = try Curl.run(server.base + "/_hlspack/stats")
      let object = try #require(try JSONSerialization.jsonObject(with: stats.body) as? [String: Any])
      #expect((object["paths"] as? [String: Int])?["/master.m3u8"] == 2)
      #expect((object["key_fetches"] as? [String: Int])?["/keys/k.key"] == 1)
      #expect((object["faults"] as? [String: Int])?["status"] == 2)
      #expect((object["bytes_served"] as? Int ?? 0) > 0)
    }

    @Test func throughputPerConnectionFollowsTheSchedule() throws {
      let server = try Self.server(
        #"{"match": {"kind": "segment"}, "action": {"throughput": {"schedule": [{"bytes_per_second": 2000}]}}}"#)
      let got = try Curl.run(server.base + Self.segment)
      #expect(got.body == ServeFixtures.segmentBytes)
      // 1000 bytes at 2000 B/s: 0.5 s, within 10 % plus curl's own start-up.
      #expect(got.seconds >= 0.45 && got.seconds < 0.8, "\(got.seconds) s")
      let entry = try #require(server.entries(path: Self.segment).first)
      #expect(entry["faults"] as? [String] == ["throughput"])
    }
  }
}
