import Foundation
import HLSPackTestSupport
import Testing

extension ServeEndToEnd {
  /// Proxy mode in front of origins that break HTTP: every failure is a 502
  /// with its reason, CORS headers, a log line and a count in the stats; a
  /// connection the origin closed under a request is retried.
  @Suite("serve: proxy mode, broken origins")
  struct BrokenOriginTests {
    static let playlist = "/live/index.m3u8"

    @Test(arguments: [
      (BrokenOrigin.Mode.huge, "the body is longer than 16 MiB, the most serve reads of a playlist or key"),
      (.endless, "the body is longer than 16 MiB, the most serve reads of a playlist or key"),
      (.trickle, "no whole answer within 1 s (--upstream-timeout)"),
      (.cut, "the connection closed before the end of the response"),
      (.reset, "connection error: Connection reset by peer"),
    ])
    func aPlaylistTheOriginCannotDeliverIsA502WithItsReason(mode: BrokenOrigin.Mode, reason: String) throws {
      let origin = try BrokenOrigin(mode)
      // A short deadline where it is the point, else room to read 16 MiB from Python.
      let timeout = mode == .trickle ? "1" : "20"
      let proxy = try ServerProcess(folder: nil, arguments: ["--upstream", origin.base, "--upstream-timeout", timeout])
      let answer = try Curl.run(proxy.base + Self.playlist)
      #expect(answer.status == 502, "\(mode)")
      #expect(answer.headers["access-control-allow-origin"] == "*")
      #expect(answer.headers["content-type"] == "text/plain; charset=utf-8")
      let url = origin.base + Self.playlist
      #expect(answer.text == "no usable answer from the origin: \(url): \(reason)\n")
      // The playlist is asked for twice (once to classify it), each within the timeout.
      #expect(answer.seconds < (mode == .trickle ? 3.5 : 15), "\(answer.seconds) s")
      let entry = try #require(proxy.entries(path: Self.playlist).first)
      #expect(entry["status"] as? Int == 502)
      #expect(entry["upstream_error"] as? String == "\(url): \(reason)")
      let stats = try Curl.run(proxy.base + "/_hlspack/stats")
      let counts = try JSONSerialization.jsonObject(with: stats.body) as? [String: Any]
      #expect((counts?["statuses"] as? [String: Int])?["502"] == 1, "\(stats.text)")
    }

    /// The origin closes each connection 3 ms after its response without
    /// saying so: the pool hands out connections that close under the next
    /// request, a third of them or more, each of which was a 502.
    @Test func requestsOnAConnectionTheOriginClosedAreSentAgain() throws {
      let origin = try BrokenOrigin(.closeAfterEachResponse)
      let proxy = try ServerProcess(folder: nil, arguments: ["--upstream", origin.base])
      var arguments: [String] = ["-sS", "--max-time", "60", "-w", "%{http_code}\n"]
      for index in 0..<100 {
        arguments += ["-o", "/dev/null", proxy.base + "/live/segment_\(index).ts"]
      }
      let run = try Command.run("curl", arguments)
      let statuses = run.text.split(separator: "\n")
      #expect(statuses.count == 100)
      #expect(statuses.allSatisfy { $0 == "200" }, "\(statuses.filter { $0 != "200" }.count) failed")
      #expect(try proxy.log().allSatisfy { $0["upstream_error"] == nil })
    }
  }
}
