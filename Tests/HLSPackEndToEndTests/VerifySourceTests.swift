import Foundation
import HLSPackTestSupport
import Testing

/// Where `hlspack verify` reads a package from: a folder, whose boundary no
/// URI crosses, or a web server, which gives the same report byte for byte.
@Suite("hlspack verify: package sources")
struct VerifySourceTests {
  let verifier = VerifyTests()

  /// A copy of the clean TS package, changed by `change`, in `folder/name`.
  func copy(_ kind: String = "ts", into folder: URL, as name: String, _ change: (URL) throws -> Void = { _ in })
    throws -> URL
  {
    let copy = folder.appendingPathComponent(name)
    let copied = try Command.run("cp", ["-a", try VerifyTests.cleanPackage(kind).path, copy.path])
    guard copied.status == 0 else { throw FixtureError(copied.stderr) }
    try change(copy)
    return copy
  }

  func verifyJSON(_ package: String) throws -> CommandResult {
    try Command.run(try Fixtures.executable(), ["verify", "--json", package])
  }

  /// The clean package, one with findings, and one media playlist alone:
  /// the same bytes of JSON and the same exit status from the folder and from 127.0.0.1.
  @Test func sameJSONOverHTTPAsFromTheFolder() throws {
    let served = try ScratchFolder.make("served")
    _ = try copy(into: served, as: "clean")
    _ = try copy(into: served, as: "missing") { package in
      try FileManager.default.removeItem(at: package.appendingPathComponent("main/segment_00001.ts"))
    }
    _ = try copy(into: served, as: "low") { package in
      try verifier.scaleVariantAttribute("BANDWIDTH", by: 0.5, in: package.appendingPathComponent("master.m3u8"))
    }
    let server = try TestHTTPServer(serving: served)
    defer { server.stop() }
    let cases: [(local: String, remote: String, status: Int32, rule: String?)] = [
      ("clean", "clean/master.m3u8", 0, nil), ("missing", "missing/", 1, "segment.missing"),
      ("low", "low/master.m3u8", 1, "multivariant.bandwidth-below-peak"),
      ("clean/main/index.m3u8", "clean/main/index.m3u8", 0, nil),
    ]
    for (local, remote, status, rule) in cases {
      let fromFolder = try verifyJSON(served.appendingPathComponent(local).path)
      let overHTTP = try verifyJSON("\(server.base)/\(remote)")
      #expect(fromFolder.status == status, "\(local): \(fromFolder.stderr)")
      #expect(overHTTP.status == status, "\(remote): \(overHTTP.stderr)")
      #expect(fromFolder.stdout == overHTTP.stdout, "\(remote):\n\(fromFolder.text)\n---\n\(overHTTP.text)")
      if let rule { #expect(overHTTP.text.contains("\"rule\" : \"\(rule)\""), "\(overHTTP.text)") }
    }
  }

  /// Through `hlspack serve`, I-frame byte ranges come as 206 responses: the
  /// report is still the folder's, byte for byte.
  @Test func sameJSONThroughRangeRequests() throws {
    let served = try ScratchFolder.make("served-ranges")
    _ = try copy(into: served, as: "clean")
    let server = try TestHTTPServer(hlspackServing: served)
    defer { server.stop() }
    let fromFolder = try verifyJSON(served.appendingPathComponent("clean").path)
    let overHTTP = try verifyJSON("\(server.base)/clean/master.m3u8")
    #expect(fromFolder.status == 0 && overHTTP.status == 0, "\(fromFolder.stderr) \(overHTTP.stderr)")
    #expect(fromFolder.stdout == overHTTP.stdout, "\(fromFolder.text)\n---\n\(overHTTP.text)")
    #expect(
      try String(contentsOf: served.appendingPathComponent("clean/main/iframes.m3u8"), encoding: .utf8)
        .contains("#EXT-X-BYTERANGE"))
  }

  @Test func missingPlaylistOverHTTPExitsTwo() throws {
    let server = try TestHTTPServer(serving: try ScratchFolder.make("empty"))
    defer { server.stop() }
    let run = try verifyJSON("\(server.base)/nothing/master.m3u8")
    #expect(run.status == 2)
    #expect(run.stderr.contains("master.m3u8"), "\(run.stderr)")
  }

  /// Segments redirected to another host name (localhost instead of 127.0.0.1) are not read.
  @Test func redirectToAnotherHostIsNotFollowed() throws {
    let served = try ScratchFolder.make("redirecting")
    _ = try copy("ts-clear", into: served, as: "clip")
    let script = """
      import http.server, sys
      port, folder = int(sys.argv[1]), sys.argv[2]
      class Handler(http.server.SimpleHTTPRequestHandler):
          def __init__(self, *args, **kwargs):
              super().__init__(*args, directory=folder, **kwargs)
          def moved(self):
              if not self.path.endswith(".ts"):
                  return False
              self.send_response(302)
              self.send_header("Location", "http://localhost:%d%s" % (port, self.path))
              self.send_header("Content-Length", "0")
              self.end_headers()
              return True
          def do_GET(self):
              self.moved() or super().do_GET()
          def do_HEAD(self):
              self.moved() or super().do_HEAD()
          def log_message(self, *args):
              pass
      http.server.HTTPServer(("127.0.0.1", port), Handler).serve_forever()
      """
    let server = try TestHTTPServer(serving: served, script: script)
    defer { server.stop() }
    let run = try verifyJSON("\(server.base)/clip/master.m3u8")
    #expect(run.status == 1)
    #expect(run.text.contains("\"package.outside-boundary\""), "\(run.text)")
    #expect(run.text.contains("http://localhost:\(server.port)/clip/main/segment_00000.ts"), "\(run.text)")
    #expect(!run.text.contains("\"segment.ts-sync-lost\""))
  }

  /// A segment that is a symbolic link to a file elsewhere on the machine is not read.
  @Test func symbolicLinkOutOfThePackage() throws {
    let outside = try ScratchFolder.make("outside")
    let result = try verifier.broken("ts-clear") { package in
      let segment = package.appendingPathComponent("main/segment_00001.ts")
      let elsewhere = outside.appendingPathComponent("segment.ts")
      try FileManager.default.moveItem(at: segment, to: elsewhere)
      try FileManager.default.createSymbolicLink(at: segment, withDestinationURL: elsewhere)
    }
    #expect(result.rules == ["package.outside-boundary"] && result.status == 1)
  }

  /// A segment URI that climbs above the package folder is not read, though the file is there.
  @Test func segmentAboveThePackage() throws {
    let result = try verifier.broken("ts-clear") { package in
      let segment = package.appendingPathComponent("main/segment_00001.ts")
      try FileManager.default.copyItem(
        at: segment, to: package.deletingLastPathComponent().appendingPathComponent("segment_00001.ts"))
      try verifier.edit(package.appendingPathComponent(VerifyTests.media)) {
        $0.replacingOccurrences(of: "\nsegment_00001.ts", with: "\n../../segment_00001.ts")
      }
      try verifier.edit(package.appendingPathComponent("main/iframes.m3u8")) {
        $0.replacingOccurrences(of: "\nsegment_00001.ts", with: "\n../../segment_00001.ts")
      }
    }
    #expect(result.rules == ["package.outside-boundary"] && result.status == 1)
  }
}
