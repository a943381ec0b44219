import Foundation
import HLSPackTestSupport
import HTTPTypes
import Testing

@testable import HLSPackServe

@Suite("serve: rules, ranges and masks")
struct ServeUnitTests {
  static let validators = FileValidators(size: 100, etag: "\"e\"", lastModified: "Sun, 06 Nov 1994 08:49:37 GMT")

  @Test func rangeHeaders() {
    func range(_ header: String?, ifRange: String? = nil) -> RangeRequest {
      RangeRequest(header: header, ifRange: ifRange, size: 100, validators: Self.validators)
    }
    #expect(range(nil) == .whole)
    #expect(range("bytes=0-0") == .partial(0...0))
    #expect(range("bytes=90-200") == .partial(90...99))
    #expect(range("bytes=-10") == .partial(90...99))
    #expect(range("bytes=-1000") == .partial(0...99))
    #expect(range("bytes=100-") == .unsatisfiable)
    #expect(range("bytes=-0") == .unsatisfiable)
    #expect(range("bytes=5-1") == .whole)
    #expect(range("bytes=0-1,5-6") == .whole)
    #expect(range("items=0-1") == .whole)
    #expect(range("bytes=1-2", ifRange: "\"e\"") == .partial(1...2))
    #expect(range("bytes=1-2", ifRange: "Sun, 06 Nov 1994 08:49:37 GMT") == .partial(1...2))
    #expect(range("bytes=1-2", ifRange: "\"old\"") == .whole)
  }

  @Test func masks() {
    #expect(SecretMask.header(name: "Authorization", value: "Bearer abc") == "Bearer ***")
    #expect(SecretMask.header(name: "cookie", value: "a=1; b=2") == "a=***; b=***")
    #expect(SecretMask.header(name: "X-Auth-Token", value: "t") == "***")
    #expect(SecretMask.header(name: "Range", value: "bytes=0-1") == "bytes=0-1")
    #expect(SecretMask.query("token=abc&x&y=") == "token=***&x&y=***")
  }

  @Test func scenarioErrorsNameTheField() {
    func problem(_ json: String) -> String? {
      do {
        _ = try Scenario.load(Data(json.utf8), source: "s.json")
        return nil
      } catch {
        return "\(error)"
      }
    }
    #expect(problem(#"{"rules": [{"match": {"kind": "key"}, "action": {"status": 401}}]}"#) == nil)
    #expect(
      problem(#"{"rules": [{"match": {"knd": "key"}, "action": {}}]}"#)?.contains("rules[0].match: unknown key \"knd\"")
        == true)
    #expect(problem(#"{"rules": [{"match": {"kind": "keys"}, "action": {}}]}"#)?.contains("kind") == true)
    #expect(problem(#"{"rules": [{"match": {"nth": [0]}, "action": {}}]}"#)?.contains("nth counts from 1") == true)
    #expect(
      problem(#"{"rules": [{"match": {}, "action": {"require": [{"header": "a", "cookie": "b"}]}}]}"#)?.contains(
        "exactly one") == true)
    #expect(
      problem(#"{"rules": [{"match": {}, "action": {"throughput": {"schedule": []}}}]}"#)?.contains("empty") == true)
  }

  @Test func rulesFoldInOrderAndCountNth() {
    let scenario = Scenario(rules: [
      ScenarioRule(name: "a", match: RuleMatch(kind: .segment, nth: [2]), action: RuleAction(status: 503)),
      ScenarioRule(name: "b", match: RuleMatch(path: "*/seg_*.ts"), action: RuleAction(status: 404, delayMs: 10)),
      ScenarioRule(name: "c", match: RuleMatch(rendition: "low"), action: RuleAction(delayMs: 5)),
    ])
    let state = ScenarioState(scenario)
    let target = RequestTarget(relativePath: "a/hi/seg_00002.ts", kind: .segment, rendition: "hi", segmentIndex: 2)
    let first = state.plan(for: target, method: "GET")
    #expect(first.ruleNames == ["b"])
    #expect(first.status == 404)
    let second = state.plan(for: target, method: "GET")
    #expect(second.ruleNames == ["a", "b"])
    #expect(second.status == 503)
    #expect(second.delayMs == 10)
  }

  @Test func scheduleSteps() {
    let throughput = Throughput(
      per: nil, schedule: [.init(bytesPerSecond: 750_000, seconds: 20), .init(bytesPerSecond: 100_000, seconds: nil)])
    #expect(throughput.bytesPerSecond(at: 0) == 750_000)
    #expect(throughput.bytesPerSecond(at: 19.9) == 750_000)
    #expect(throughput.bytesPerSecond(at: 20) == 100_000)
    #expect(throughput.bytesPerSecond(at: 1000) == 100_000)
  }

  /// A sender that woke 30 ms late gets its next bytes due at once, 100 ms
  /// after the last ones were due: the pace does not drift on a busy machine.
  @Test func aPaceThatFellBehindCatchesUpButAnIdleOneBanksNothing() {
    let pacers = Pacers()
    let throughput = Throughput(per: nil, schedule: [.init(bytesPerSecond: 100_000, seconds: nil)])
    let origin = ContinuousClock.now
    let first = pacers.reserve(bytes: 10_000, key: "c", throughput: throughput, origin: origin, now: origin)
    #expect(first == origin + .milliseconds(100))
    let late = first + .milliseconds(30)
    let second = pacers.reserve(bytes: 10_000, key: "c", throughput: throughput, origin: origin, now: late)
    #expect(second == first + .milliseconds(100))
    let idle = second + .seconds(1)
    let third = pacers.reserve(bytes: 10_000, key: "c", throughput: throughput, origin: origin, now: idle)
    #expect(third == idle + .milliseconds(100))
  }

  @Test func targets() throws {
    let folder = try ScratchFolder.make()
    let master = folder.appendingPathComponent("m.m3u8")
    try Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n".utf8).write(to: master)
    #expect(RequestTarget(relativePath: "m.m3u8", realPath: master.path).kind == .master)
    let segment = RequestTarget(relativePath: "x/720p/segment_00012.m4s", realPath: "/nonexistent")
    #expect(segment.kind == .segment)
    #expect(segment.rendition == "720p")
    #expect(segment.segmentIndex == 12)
    #expect(RequestTarget(relativePath: "x/720p/init.mp4", realPath: "/nonexistent").kind == .initSegment)
    #expect(RequestTarget(relativePath: "keys/0123", realPath: "/nonexistent").kind == .key)
    #expect(RequestTarget(relativePath: "report.json", realPath: "/nonexistent").kind == .other)
  }

  @Test func keyURIsResolveAgainstTheirPlaylist() {
    let playlist = """
      #EXTM3U
      #EXT-X-KEY:METHOD=AES-128,URI="../secrets/key.bin",IV=0x1
      #EXT-X-KEY:METHOD=NONE
      #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://asset-1",KEYFORMAT="com.apple.streamingkeydelivery"
      #EXT-X-SESSION-KEY:METHOD=AES-128,URI="https://keys.example/license/a%20b"
      #EXT-X-KEY:METHOD=AES-128,URI="/root-key"
      #EXTINF:4,
      segment_0.ts
      """
    #expect(
      KeyURIs.keyPaths(in: playlist, at: "sample/720p/index.m3u8") == [
        "sample/secrets/key.bin", "license/a b", "root-key",
      ])
    let keys = KeyURIs()
    keys.learn(playlist: playlist, at: "sample/720p/index.m3u8")
    #expect(keys.contains("sample/secrets/key.bin", scanning: nil))
    #expect(!keys.contains("sample/720p/segment_0.ts", scanning: nil))
  }

  /// The URI is the attribute named URI, read by the project's M3U8 tokenizer:
  /// not a `URI="` inside another attribute's name, not a tag that only starts like a key tag.
  @Test func keyURIsAreReadAsAttributes() {
    let playlist = """
      #EXTM3U
      #EXT-X-KEY:METHOD=AES-128,X-OLDURI="old.key",URI="new.key"
      #EXT-X-KEYS:METHOD=AES-128,URI="not-a-key-tag.key"
      #EXTINF:4,
      segment_0.ts
      """
    #expect(KeyURIs.keyPaths(in: playlist, at: "a/index.m3u8") == ["a/new.key"])
  }

  @Test func gzipNegotiationAndTags() {
    #expect(PlaylistGzip.accepts("gzip, deflate, br"))
    #expect(PlaylistGzip.accepts("br;q=1.0, gzip;q=0.5"))
    #expect(PlaylistGzip.accepts("*"))
    #expect(!PlaylistGzip.accepts("gzip;q=0"))
    #expect(!PlaylistGzip.accepts("gzip; q=0.0, *;q=1"), "an explicit gzip weight wins over *")
    #expect(!PlaylistGzip.accepts("identity"))
    #expect(!PlaylistGzip.accepts(nil))
    #expect(PlaylistGzip.etag("\"a-1\"") == "\"a-1-gzip\"")
    #expect(PlaylistGzip.etag("W/\"a\"") == "W/\"a-gzip\"")
    #expect(PlaylistGzip.identityTags("\"a-gzip\", \"b\"") == "\"a\", \"b\"")
    let playlist = RequestTarget(relativePath: "x/index.m3u8", kind: .media, rendition: "x", segmentIndex: nil)
    var headers = HTTPFields()
    headers[.acceptEncoding] = "gzip"
    #expect(PlaylistGzip.choose(enabled: false, target: playlist, headers: headers) == .notApplicable)
    #expect(PlaylistGzip.choose(enabled: true, target: playlist, headers: headers) == .gzip)
    let segment = RequestTarget(relativePath: "x/s_1.ts", kind: .segment, rendition: "x", segmentIndex: 1)
    #expect(PlaylistGzip.choose(enabled: true, target: segment, headers: headers) == .notApplicable)
    headers[.range] = "bytes=0-9"
    #expect(PlaylistGzip.choose(enabled: true, target: playlist, headers: headers) == .identity)
  }

  @Test func proxyPathsAreRefusedLikeFolderPaths() {
    #expect(ServedFolder.relativePath(requestPath: "/a//b/c.ts") == "a/b/c.ts")
    #expect(ServedFolder.relativePath(requestPath: "/") == "")
    #expect(ServedFolder.relativePath(requestPath: "/a/%2e%2e/b") == nil)
    #expect(ServedFolder.relativePath(requestPath: "/a/./b") == nil)
    #expect(ServedFolder.relativePath(requestPath: "/a%00b") == nil)
  }

  @Test func theOriginsURLIsChecked() async throws {
    #expect(throws: ServeError.upstreamInvalid(url: "ftp://o/", reason: "expected an http:// or https:// URL")) {
      try Upstream(url: "ftp://o/")
    }
    #expect(throws: ServeError.upstreamInvalid(url: "http:///x", reason: "no host")) { try Upstream(url: "http:///x") }
    let upstream = try Upstream(url: "http://origin:8080/base/")
    #expect(upstream.url(requestPath: "/a/b.ts", query: "t=1") == "http://origin:8080/base/a/b.ts?t=1")
    await upstream.shutdown()
  }
}

@Suite("serve: shipped scenarios")
struct ShippedScenarioTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Profiles/scenarios")

  @Test func everyShippedScenarioLoads() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".json") }
    #expect(names.count >= 5)
    for name in names {
      let data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
      let scenario = try Scenario.load(data, source: name)
      #expect(!scenario.rules.isEmpty, "\(name)")
    }
  }
}
