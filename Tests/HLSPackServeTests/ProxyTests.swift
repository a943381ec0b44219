import Foundation
import HLSPackTestSupport
import Testing

extension ServeEndToEnd {
  /// `hlspack serve --upstream`: a second `hlspack serve` is the origin, and
  /// the proxy in front of it applies the rules, logs and counts.
  @Suite("serve: proxy mode")
  struct ProxyTests {
    static let segment = "/src/segment_00003.ts"

    static func proxy(to origin: ServerProcess, _ arguments: [String] = []) throws -> ServerProcess {
      try ServerProcess(folder: nil, arguments: ["--upstream", origin.base] + arguments)
    }

    @Test func ffmpegPlaysTheAES128PackageThroughTheProxyAndFetchesTheKeyOnce() throws {
      let package = try ServeFixtures.aesPackage()
      let origin = try ServerProcess(folder: package)
      let proxy = try Self.proxy(to: origin)
      let played = try ServeFixtures.play(proxy.base + "/sample/master.m3u8")
      #expect(played.status == 0, "\(played.stderr)")

      let keyPath = try ServeFixtures.keyPath(in: package)
      let keys = try proxy.entries(path: keyPath)
      #expect(keys.count == 1)
      #expect(keys.first?["kind"] as? String == "key")
      #expect(keys.first?["status"] as? Int == 206, "the origin's answer to bytes=0-")
      #expect(keys.first?["bytes"] as? Int == 16)
      let log = try proxy.log()
      #expect(log.first?["kind"] as? String == "master", "classified from the origin's playlist")
      #expect(log.contains { $0["path"] as? String == "/sample/src/index.m3u8" && $0["kind"] as? String == "media" })
      let segments = log.filter { $0["kind"] as? String == "segment" }
      #expect(segments.compactMap { $0["segment"] as? Int } == [0, 1, 2])
      #expect(segments.allSatisfy { $0["status"] as? Int == 206 && $0["rendition"] as? String == "src" })
      #expect(try origin.entries(path: keyPath).count == 1)
    }

    @Test func faultRulesApplyToTheOriginsFiles() throws {
      let origin = try ServerProcess(folder: try ServeFixtures.tree())
      let scenario = try ServeFixtures.scenario(
        #"""
        {"rules": [{"match": {"kind": "segment", "nth": [1]}, "action": {"status": 503}},
                   {"match": {"kind": "key"}, "action": {"key": "wrong"}},
                   {"match": {"kind": "init"}, "action": {"truncate_bytes": 40}}]}
        """#)
      let proxy = try Self.proxy(to: origin, ["--scenario", scenario])
      #expect(try Curl.run(proxy.base + Self.segment).status == 503)
      let second = try Curl.run(proxy.base + Self.segment)
      #expect(second.status == 200)
      #expect(second.body == ServeFixtures.segmentBytes)
      #expect(second.headers["content-type"] == "video/mp2t")
      #expect(try origin.entries(path: Self.segment).count == 1, "the 503 never reached the origin")

      let key = try Curl.run(proxy.base + "/keys/k.key")
      #expect(key.body == Data(ServeFixtures.keyBytes.map { ~$0 }))
      let truncated = try Curl.run(proxy.base + "/audio/en/init.mp4")
      #expect(truncated.exitCode != 0)
      #expect(truncated.body.count == 40)

      let entries = try proxy.entries(path: Self.segment, atLeast: 2)
      #expect(entries.map { $0["faults"] as? [String] ?? [] } == [["status"], []])
      #expect(try proxy.entries(path: "/keys/k.key").first?["faults"] as? [String] == ["key_wrong"])
      #expect(try proxy.entries(path: "/audio/en/init.mp4").first?["faults"] as? [String] == ["truncate"])
    }

    @Test func rangesAndValidatorsPassThrough() throws {
      let origin = try ServerProcess(folder: try ServeFixtures.tree())
      let proxy = try Self.proxy(to: origin)
      let url = proxy.base + Self.segment
      let direct = try Curl.run(origin.base + Self.segment, ["-I"])

      let part = try Curl.run(url, ["-H", "Range: bytes=100-199"])
      #expect(part.status == 206)
      #expect(part.headers["content-range"] == "bytes 100-199/1000")
      #expect(part.headers["content-length"] == "100")
      #expect(part.body == ServeFixtures.segmentBytes[100...199])
      #expect(part.headers["etag"] == direct.headers["etag"])
      #expect(part.headers["last-modified"] == direct.headers["last-modified"])

      let etag = try #require(direct.headers["etag"])
      #expect(try Curl.run(url, ["-H", "If-None-Match: \(etag)"]).status == 304)
      let stale = try Curl.run(url, ["-H", "Range: bytes=0-9", "-H", "If-Range: \"other\""])
      #expect(stale.status == 200, "If-Range that does not match: the whole file")
      #expect(stale.body == ServeFixtures.segmentBytes)
      let beyond = try Curl.run(url, ["-H", "Range: bytes=5000-"])
      #expect(beyond.status == 416)
      #expect(beyond.headers["content-range"] == "bytes */1000")
      let head = try Curl.run(url, ["-I"])
      #expect(head.status == 200)
      #expect(head.headers["content-length"] == "1000")
      #expect(try Curl.run(proxy.base + "/missing.ts").status == 404, "the origin's status")
      #expect(try Curl.run(proxy.base + "/%2e%2e/x.ts", ["--path-as-is"]).status == 403)

      let logged = try proxy.entries(path: Self.segment, atLeast: 5)
      #expect(logged.first?["range"] as? String == "bytes=100-199")
      #expect(logged.first?["bytes"] as? Int == 100)
    }

    @Test func throughputSchedulesPaceTheOriginsBodies() throws {
      let origin = try ServerProcess(folder: try ThroughputTests.folder())
      let proxy = try Self.proxy(to: origin)
      try ThroughputTests.post(
        #"""
        {"rules": [{"match": {"kind": "segment"}, "action": {"throughput": {"schedule": [
          {"bytes_per_second": 200000}]}}}]}
        """#, to: proxy)
      let paced = try Curl.run(proxy.base + "/ladder/low/segment_00000.ts")
      #expect(paced.body == Data(repeating: 0, count: ThroughputTests.size))
      // 200 000 bytes at 200 000 B/s: 1 s.
      let body = paced.seconds - paced.firstByteSeconds
      #expect(abs(body - 1.0) <= 0.1, "\(body) s")
      let entry = try #require(proxy.entries(path: "/ladder/low/segment_00000.ts").first)
      #expect(entry["faults"] as? [String] == ["throughput"])
      #expect(entry["rendition"] as? String == "low")
    }

    @Test func anOriginThatDoesNotAnswerGives502() throws {
      let origin = try ServerProcess(folder: try ServeFixtures.tree())
      let proxy = try Self.proxy(to: origin)
      #expect(try Curl.run(proxy.base + Self.segment).status == 200)
      _ = origin.stop()
      let failed = try Curl.run(proxy.base + Self.segment)
      #expect(failed.status == 502)
      #expect(failed.seconds < 3, "no retries until the connect timeout")
      #expect(failed.text.contains(origin.base + Self.segment), "\(failed.text)")
      let entry = try #require(proxy.entries(path: Self.segment, atLeast: 2).last)
      #expect(entry["status"] as? Int == 502)
      let reason = entry["upstream_error"] as? String ?? ""
      #expect(reason.hasPrefix(origin.base + Self.segment + ": "), "\(reason)")
    }

    @Test func aFolderAndAnUpstreamTogetherAreRefused() throws {
      let folder = try ServeFixtures.tree()
      let both = try Command.run(
        try ServerProcess.executable(), ["serve", folder.path, "--upstream", "http://127.0.0.1:9/", "--port", "0"])
      #expect(both.status == 64)
      #expect(both.stderr.contains("either FOLDER or --upstream URL, not both"), "\(both.stderr)")
      let neither = try Command.run(try ServerProcess.executable(), ["serve", "--port", "0"])
      #expect(neither.status == 64)
      #expect(neither.stderr.contains("--upstream URL"), "\(neither.stderr)")
      let scheme = try Command.run(
        try ServerProcess.executable(), ["serve", "--upstream", "ftp://origin/", "--port", "0"])
      #expect(scheme.status == 2)
      #expect(scheme.stderr.contains("--upstream ftp://origin/: expected an http:// or https:// URL"))
    }
  }
}
