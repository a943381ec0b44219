import Foundation
import HLSPackTestSupport
import Testing

extension ServeEndToEnd {
  /// Which requests a rule picks (kind, path glob, rendition, segment index,
  /// time window, every request), as curl sees it through the rules' added
  /// headers or status and as the request log names the rules that applied.
  @Suite("serve: scenario matching")
  struct ScenarioMatchTests {
    /// One file of each kind in ServeFixtures.tree().
    static let kinds = [
      ("master", "/master.m3u8"), ("media", "/src/index.m3u8"), ("segment", "/src/segment_00003.ts"),
      ("init", "/audio/en/init.mp4"), ("key", "/keys/k.key"), ("subtitles", "/sub/en.vtt"),
    ]

    @Test func eachKindMatchesOnlyItsFilesAndAnEmptyMatchEveryRequest() throws {
      let rules = Self.kinds.map { kind, _ in
        #"{"name": "kind \#(kind)", "match": {"kind": "\#(kind)"}, "action": {"headers": {"X-Kind": "\#(kind)"}}}"#
      }
      let every = #"{"name": "every", "match": {}, "action": {"headers": {"X-Every": "yes"}}}"#
      let server = try ScenarioFaultTests.server((rules + [every]).joined(separator: ",\n"))
      for (kind, path) in Self.kinds {
        let got = try Curl.run(server.base + path)
        #expect(got.status == 200, "\(path)")
        #expect(got.headers["x-kind"] == kind, "\(path)")
        #expect(got.headers["x-every"] == "yes", "\(path)")
        let entry = try #require(server.entries(path: path).first)
        #expect(entry["kind"] as? String == kind)
        #expect(entry["status"] as? Int == 200)
        #expect(entry["rules"] as? [String] == ["kind \(kind)", "every"], "\(entry)")
        #expect(entry["faults"] == nil, "added headers are no fault: \(entry)")
      }
      let missing = try Curl.run(server.base + "/nothing.ts")
      #expect(missing.status == 404)
      #expect(missing.headers["x-every"] == nil, "rules apply to files that exist")
    }

    @Test func pathGlobRenditionAndSegmentIndexPickTheirFiles() throws {
      let server = try ScenarioFaultTests.server(
        #"""
        {"name": "glob", "match": {"path": "audio/*.m4s"}, "action": {"headers": {"X-Glob": "1"}}},
        {"name": "rendition", "match": {"rendition": "en"}, "action": {"headers": {"X-Rendition": "1"}}},
        {"name": "segment 3", "match": {"segment": [3]}, "action": {"status": 410}}
        """#)
      // (path, glob?, rendition?, segment 3?): `*` crosses `/`, so the glob reaches audio/en/.
      let expected = [
        ("/audio/en/segment_00001.m4s", true, true, false), ("/audio/en/init.mp4", false, true, false),
        ("/src/segment_00003.ts", false, false, true), ("/src/index.m3u8", false, false, false),
      ]
      for (path, glob, rendition, segment) in expected {
        let got = try Curl.run(server.base + path)
        #expect(got.status == (segment ? 410 : 200), "\(path)")
        #expect((got.headers["x-glob"] != nil) == glob, "\(path)")
        #expect((got.headers["x-rendition"] != nil) == rendition, "\(path)")
        let entry = try #require(server.entries(path: path).first)
        let names = [(glob, "glob"), (rendition, "rendition"), (segment, "segment 3")].filter { $0.0 }.map { $0.1 }
        #expect(entry["rules"] as? [String] ?? [] == names, "\(entry)")
        #expect(entry["faults"] as? [String] ?? [] == (segment ? ["status"] : []), "\(entry)")
        #expect(entry["status"] as? Int == (segment ? 410 : 200))
      }
    }

    @Test func aTimeWindowAppliesFromItsStartUntilItsEnd() throws {
      let server = try ServerProcess(folder: try ServeFixtures.tree())
      let started = Date()
      try ThroughputTests.post(
        #"""
        {"rules": [{"name": "outage", "match": {"kind": "segment", "from_seconds": 1.5, "until_seconds": 3},
                    "action": {"status": 503}}]}
        """#, to: server)
      var statuses: [Int] = []
      for moment in [0.0, 2.2, 3.4] {
        Thread.sleep(forTimeInterval: max(0, moment - Date().timeIntervalSince(started)))
        statuses.append(try Curl.run(server.base + ScenarioFaultTests.segment).status)
      }
      #expect(statuses == [200, 503, 200])
      let entries = try server.entries(path: ScenarioFaultTests.segment, atLeast: 3)
      #expect(entries.map { $0["status"] as? Int } == [200, 503, 200])
      #expect(entries.map { $0["rules"] as? [String] ?? [] } == [[], ["outage"], []])
      #expect(entries.map { $0["faults"] as? [String] ?? [] } == [[], ["status"], []])
    }

    @Test func aRequiredHeaderAnswers401Then403ThenTheFile() throws {
      let server = try ScenarioFaultTests.server(
        #"""
        {"name": "app header", "match": {"kind": "subtitles"}, "action": {"require": [{"header": "X-App", "value": "a1"}]}}
        """#)
      let path = "/sub/en.vtt"
      let missing = try Curl.run(server.base + path)
      #expect(missing.status == 401)
      #expect(missing.headers["www-authenticate"] == "Bearer")
      #expect(try Curl.run(server.base + path, ["-H", "X-App: a2"]).status == 403)
      let granted = try Curl.run(server.base + path, ["-H", "X-App: a1"])
      #expect(granted.status == 200)
      #expect(granted.text == "WEBVTT\n")
      let entries = try server.entries(path: path, atLeast: 3)
      #expect(entries.map { $0["status"] as? Int } == [401, 403, 200])
      #expect(entries.map { $0["faults"] as? [String] ?? [] } == [["unauthorized"], ["forbidden"], []])
      #expect(entries.allSatisfy { $0["rules"] as? [String] == ["app header"] })
    }

    /// Every example in Profiles/scenarios starts a server that answers with its rules in force.
    @Test func everyShippedScenarioStartsTheServer() throws {
      let folder = ServeFixtures.repository.appendingPathComponent("Profiles/scenarios")
      let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
      #expect(names.count >= 5)
      for name in names.sorted() {
        let server = try ServerProcess(
          folder: try ServeFixtures.tree(), arguments: ["--scenario", folder.appendingPathComponent(name).path])
        let stats = try Curl.run(server.base + "/_hlspack/stats")
        #expect(stats.status == 200, "\(name): \(server.stderr)")
        #expect(server.stop() == 0, "\(name)")
      }
    }
  }
}
