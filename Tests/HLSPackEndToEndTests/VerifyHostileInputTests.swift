import Foundation
import HLSPackTestSupport
import Testing

/// Playlists written to break `verify`: numbers out of their RFC 8216bis §4.2
/// range, byte ranges beyond any file, segments it cannot read. Each is a
/// must-fix finding, the same from the folder and over HTTP; none traps.
@Suite("hlspack verify: hostile playlists")
struct VerifyHostileInputTests {
  let verifier = VerifyTests()

  /// A copy of the clear TS package in `folder/name`, its media playlist
  /// (EXT-X-VERSION 4, for byte ranges) changed by `change`, the package then changed by `more`.
  func copy(
    _ kind: String = "ts-clear", into folder: URL, as name: String, _ change: @escaping (String) -> String,
    more: (URL) throws -> Void = { _ in }
  ) throws {
    let copy = folder.appendingPathComponent(name)
    let copied = try Command.run("cp", ["-a", try VerifyTests.cleanPackage(kind).path, copy.path])
    guard copied.status == 0 else { throw FixtureError(copied.stderr) }
    try verifier.edit(copy.appendingPathComponent(VerifyTests.media)) {
      change($0.replacingOccurrences(of: "#EXT-X-VERSION:3\n", with: "#EXT-X-VERSION:4\n"))
    }
    try more(copy)
  }

  static func first(_ tag: String, as value: String) -> @Sendable (String) -> String {
    { text in
      guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(tag) }) else { return text }
      return text.replacingOccurrences(of: line + "\n", with: value + "\n")
    }
  }

  static func rangeOnFirstSegment(_ range: String) -> @Sendable (String) -> String {
    { $0.replacingOccurrences(of: "\nsegment_00000.ts\n", with: "\n#EXT-X-BYTERANGE:\(range)\nsegment_00000.ts\n") }
  }

  static let cases: [(name: String, change: @Sendable (String) -> String, rule: String)] = [
    ("nan", first("#EXTINF:", as: "#EXTINF:nan,"), "playlist.extinf-missing"),
    ("inf", first("#EXTINF:", as: "#EXTINF:inf,"), "playlist.extinf-missing"),
    ("e308", first("#EXTINF:", as: "#EXTINF:1e308,"), "playlist.extinf-missing"),
    ("digits", first("#EXTINF:", as: "#EXTINF:\(String(repeating: "9", count: 5000)),"), "playlist.extinf-missing"),
    ("max-range", rangeOnFirstSegment("9223372036854775807@9223372036854775807"), "segment.byterange-invalid"),
    ("near-max-offset", rangeOnFirstSegment("100@9223372036854775800"), "segment.byterange-invalid"),
    ("negative-length", rangeOnFirstSegment("-5@0"), "segment.byterange-invalid"),
    ("negative-offset", rangeOnFirstSegment("10@-10"), "segment.byterange-invalid"),
    ("empty", rangeOnFirstSegment("0@0"), "segment.byterange-invalid"),
    ("past-the-end", rangeOnFirstSegment("100@100000000"), "segment.byterange-invalid"),
    (
      "absolute-url",
      { $0.replacingOccurrences(of: "\nsegment_00001.ts", with: "\nhttp://127.0.0.1:9/segment_00001.ts") },
      "package.outside-boundary"
    ),
    ("bandwidth", { $0 }, "playlist.number-invalid"),
  ]

  /// Before, the numbers trapped verify (SIGILL, exit 132) and the ranges and
  /// the absolute URL left a segment unread with exit 0.
  @Test func hostileValuesAreMustFixFindingsLocallyAndOverHTTP() throws {
    let served = try ScratchFolder.make("hostile")
    for (name, change, _) in Self.cases {
      try copy(into: served, as: name, change) { package in
        guard name == "bandwidth" else { return }
        try verifier.edit(package.appendingPathComponent("master.m3u8")) {
          $0.replacingOccurrences(
            of: "#EXT-X-STREAM-INF:BANDWIDTH=",
            with: "#EXT-X-STREAM-INF:BANDWIDTH=1\(String(repeating: "0", count: 30))")
        }
      }
    }
    let server = try TestHTTPServer(serving: served)
    defer { server.stop() }
    for (name, _, rule) in Self.cases {
      let local = try Command.run(
        try Fixtures.executable(), ["verify", "--json", served.appendingPathComponent(name).path])
      let remote = try Command.run(
        try Fixtures.executable(), ["verify", "--json", "\(server.base)/\(name)/master.m3u8"])
      #expect(local.status == 1, "\(name): \(local.status) \(local.stderr)")
      #expect(local.text.contains("\"rule\" : \"\(rule)\""), "\(name): \(local.text)")
      #expect(remote.status == 1 && remote.stdout == local.stdout, "\(name):\n\(local.text)\n---\n\(remote.text)")
    }
  }

  /// An initialization section that is no ISO BMFF box tree: its segments
  /// cannot be checked, which is a finding, not a silent skip.
  @Test func initializationSectionThatCannotBeParsed() throws {
    let result = try verifier.broken("fmp4") { package in
      try verifier.overwrite(package.appendingPathComponent("main/init.mp4"), with: Array("not an init section".utf8))
    }
    #expect(result.status == 1)
    #expect(result.rules.contains("segment.unreadable"), "\(result.rules)")
  }

  /// User names and passwords of URLs are printed as "***", in errors and findings.
  @Test func credentialsInURLsAreMasked() throws {
    let server = try TestHTTPServer(serving: try ScratchFolder.make("empty"))
    defer { server.stop() }
    let url = server.base.replacingOccurrences(of: "http://", with: "http://bob:s3cret@") + "/none/master.m3u8"
    let missing = try Command.run(try Fixtures.executable(), ["verify", url])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("http://***@127.0.0.1") && !missing.stderr.contains("s3cret"), "\(missing.stderr)")

    let folder = try ScratchFolder.make("credentials")
    try copy(
      into: folder, as: "clip",
      { $0.replacingOccurrences(of: "\nsegment_00001.ts", with: "\nhttp://bob:s3cret@cdn.invalid/s.ts") })
    for format in [["--json"], []] {
      let run = try Command.run(
        try Fixtures.executable(), ["verify"] + format + [folder.appendingPathComponent("clip").path])
      #expect(run.status == 1 && run.text.contains("http://***@cdn.invalid/s.ts"), "\(run.text)")
      #expect(!run.text.contains("s3cret") && !run.stderr.contains("s3cret"))
    }
  }

  /// A server whose HEAD promises 2^63 − 1 bytes for a segment its GET sends
  /// whole: the difference is a finding (before, exit 0 and that many bytes counted).
  @Test func headThatPromisesOtherBytesThanTheBody() throws {
    let served = try ScratchFolder.make("lying")
    let copied = try Command.run(
      "cp", ["-a", try VerifyTests.cleanPackage("ts-clear").path, served.appendingPathComponent("clip").path])
    guard copied.status == 0 else { throw FixtureError(copied.stderr) }
    let script = """
      import http.server, sys
      port, folder = int(sys.argv[1]), sys.argv[2]
      class Handler(http.server.SimpleHTTPRequestHandler):
          def __init__(self, *args, **kwargs):
              super().__init__(*args, directory=folder, **kwargs)
          def do_HEAD(self):
              if not self.path.endswith("segment_00001.ts"):
                  return super().do_HEAD()
              self.send_response(200)
              self.send_header("Content-Length", "9223372036854775807")
              self.end_headers()
          def log_message(self, *args):
              pass
      http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
      """
    let server = try TestHTTPServer(serving: served, script: script)
    defer { server.stop() }
    let run = try Command.run(try Fixtures.executable(), ["verify", "--json", "\(server.base)/clip/master.m3u8"])
    #expect(run.status == 1, "\(run.stderr)")
    #expect(
      run.text.contains("\"segment.unreadable\"") && run.text.contains("its size said 9223372036854775807"),
      "\(run.text)")
  }
}
