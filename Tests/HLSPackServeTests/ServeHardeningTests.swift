import Foundation
import HLSPackTestSupport
import Testing

extension ServeEndToEnd {
  /// What a client of the fixture server may throw at it: hostile scenarios
  /// (file and POST), bodiless statuses, floods of missing paths, a log that fails.
  @Suite("serve: hardening")
  struct ServeHardeningTests {
    static let segment = "/src/segment_00003.ts"

    static func post(_ server: ServerProcess, _ rules: String) throws -> CurlResult {
      try Curl.run(
        server.base + "/_hlspack/scenario", ["-X", "POST", "--data-binary", #"{"rules": [\#(rules)]}"#])
    }

    @Test func hostileRatesAreRefusedByFileAndByPostAndServingGoesOn() throws {
      let folder = try ServeFixtures.tree()
      let scenario = try ServeFixtures.scenario(
        #"{"rules": [{"match": {}, "action": {"throughput": {"schedule": [{"bytes_per_second": 2e20}]}}}]}"#)
      let refused = try Command.run(
        try ServerProcess.executable(), ["serve", folder.path, "--port", "0", "--scenario", scenario])
      #expect(refused.status == 2)
      #expect(
        refused.stderr.contains("rules[0].action.throughput.schedule[0].bytes_per_second: 2e+20"), "\(refused.stderr)")

      let server = try ServerProcess(folder: folder)
      for rate in ["1e-9", "1e-7", "1e-12", "2e20"] {
        let answer = try Self.post(
          server, #"{"match": {}, "action": {"throughput": {"schedule": [{"bytes_per_second": \#(rate)}]}}}"#)
        #expect(answer.status == 400, "\(rate)")
        #expect(answer.text.contains("rules[0].action.throughput.schedule[0].bytes_per_second"), "\(answer.text)")
        #expect(try Curl.run(server.base + Self.segment).body == ServeFixtures.segmentBytes, "\(rate)")
      }
      let framing = try Self.post(server, #"{"match": {}, "action": {"headers": {"Content-Length": "5"}}}"#)
      #expect(framing.status == 400)
      #expect(framing.text.contains("rules[0].action.headers.Content-Length"), "\(framing.text)")
      let interim = try Self.post(server, #"{"match": {}, "action": {"status": 101}}"#)
      #expect(interim.status == 400)
      #expect(interim.text.contains("rules[0].action.status: 101"), "\(interim.text)")
      #expect(try Curl.run(server.base + Self.segment).status == 200, "still serving, no rule in force")
    }

    /// 204, 205 and 304 carry no body, and the connection stays usable for the next response.
    @Test func bodilessStatusesSendNoBody() throws {
      let scenario = try ServeFixtures.scenario(
        #"""
        {"rules": [
          {"match": {"path": "master.m3u8"}, "action": {"status": 204}},
          {"match": {"path": "src/index.m3u8"}, "action": {"status": 304}},
          {"match": {"path": "sub/en.vtt"}, "action": {"status": 205}}]}
        """#)
      let server = try ServerProcess(folder: try ServeFixtures.tree(), arguments: ["--scenario", scenario])
      let paths = ["/master.m3u8", "/src/index.m3u8", "/sub/en.vtt", "/keys/k.key"]
      let bodies = try ScratchFolder.make("bodies")
      // -v: curl says "Excess found" there when bytes follow a bodiless response.
      var arguments = ["-sSv", "-w", "%{http_code} %{size_download} %{num_connects}\n"]
      for (index, path) in paths.enumerated() {
        arguments += ["-o", bodies.appendingPathComponent("\(index)").path, server.base + path]
      }
      let run = try Command.run("curl", arguments)
      #expect(run.status == 0, "\(run.stderr)")
      #expect(!run.stderr.contains("Excess found") && !run.stderr.contains("HTTP/0.9"), "\(run.stderr)")
      let lines = run.text.split(separator: "\n").map(String.init)
      #expect(lines == ["204 0 1", "304 0 0", "205 0 0", "200 16 0"], "one connection throughout")
      #expect(try Data(contentsOf: bodies.appendingPathComponent("3")) == ServeFixtures.keyBytes)
      let head = try Curl.run(server.base + "/master.m3u8", ["-I"])
      #expect(head.status == 204)
      #expect(head.headers["content-length"] == nil, "RFC 9110 section 8.6: no Content-Length in a 204")
    }

    @Test func missingPathsAreCountedTogether() throws {
      let server = try ServerProcess(folder: try ServeFixtures.tree())
      let flood = try Command.run(
        "curl", ["-sS", "-o", "/dev/null", server.base + "/missing-[1-2000]/x.ts", server.base + "/master.m3u8"])
      #expect(flood.status == 0, "\(flood.stderr)")
      let stats = try Curl.run(server.base + "/_hlspack/stats")
      #expect(stats.body.count < 2000, "\(stats.body.count) bytes")
      let object = try #require(try JSONSerialization.jsonObject(with: stats.body) as? [String: Any])
      let paths = try #require(object["paths"] as? [String: Int])
      #expect(paths["(not served)"] == 2000)
      #expect(paths["/master.m3u8"] == 1)
      #expect((object["statuses"] as? [String: Int])?["404"] == 2000)
    }

    /// A full disk (and, for root, an I/O error) is reported once; the server goes on answering.
    @Test(arguments: ["/dev/full", "/proc/version"])
    func aFailingLogIsReportedOnceAndServingGoesOn(log: String) throws {
      if log == "/proc/version" && geteuid() != 0 { return }
      let server = try ServerProcess(folder: try ServeFixtures.tree(), log: log)
      for _ in 0..<3 { #expect(try Curl.run(server.base + "/keys/k.key").body == ServeFixtures.keyBytes) }
      #expect(server.process.isRunning)
      let reports = server.stderr.components(separatedBy: "the request log (\(log)) cannot be written").count - 1
      #expect(reports == 1, "\(server.stderr)")
      #expect(server.stop() == 0)
    }

    /// `hlspack serve --log - | head -1`: the reader goes, the server stays.
    @Test func aLogReaderThatGoesAwayLeavesTheServerServing() throws {
      let server = try ServerProcess(folder: try ServeFixtures.tree(), log: "-")
      try server.closeStandardOutput()
      for _ in 0..<3 { #expect(try Curl.run(server.base + "/keys/k.key").status == 200) }
      #expect(server.process.isRunning)
      #expect(
        server.stderr.contains("the request log (standard output) cannot be written: Broken pipe"), "\(server.stderr)")
      #expect(server.stop() == 0)
    }
  }
}
