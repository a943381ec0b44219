import Foundation
import HLSPackTestSupport
import Testing

/// `verify` against a server that sends bodies one byte at a time: each
/// resource and the whole run end at their deadlines, and the waiting costs
/// no CPU (before, one core spun at ~97 % and the run never ended).
@Suite("hlspack verify: HTTP deadlines")
struct VerifyDeadlineTests {
  /// Serves the folder; GET bodies of paths ending in `slow` go out one byte every `interval` seconds.
  static func tricklingServer(_ folder: URL, slow: String, interval: Double) throws -> TestHTTPServer {
    let script = """
      import http.server, sys, time
      port, folder = int(sys.argv[1]), sys.argv[2]
      class Handler(http.server.SimpleHTTPRequestHandler):
          def __init__(self, *args, **kwargs):
              super().__init__(*args, directory=folder, **kwargs)
          def copyfile(self, source, target):
              if not self.path.endswith("\(slow)"):
                  return super().copyfile(source, target)
              try:
                  while byte := source.read(1):
                      target.write(byte)
                      target.flush()
                      time.sleep(\(interval))
              except OSError:
                  pass
          def log_message(self, *args):
              pass
      http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
      """
    return try TestHTTPServer(serving: folder, script: script)
  }

  func served() throws -> URL {
    let folder = try ScratchFolder.make("trickled")
    let copied = try Command.run(
      "cp", ["-a", try VerifyTests.cleanPackage("ts-clear").path, folder.appendingPathComponent("clip").path])
    guard copied.status == 0 else { throw FixtureError(copied.stderr) }
    return folder
  }

  /// The CPU seconds (user + system) and the result of one verify run.
  func timed(_ arguments: [String]) throws -> (cpu: Double, wall: Double, run: CommandResult) {
    let measure = """
      import resource, subprocess, sys
      done = subprocess.run(sys.argv[1:], capture_output=True)
      usage = resource.getrusage(resource.RUSAGE_CHILDREN)
      sys.stdout.write("%f\\n" % (usage.ru_utime + usage.ru_stime))
      sys.stdout.buffer.write(done.stdout)
      sys.stderr.buffer.write(done.stderr)
      sys.exit(done.returncode)
      """
    let start = Date()
    let run = try Command.run("python3", ["-c", measure, try Fixtures.executable(), "verify"] + arguments)
    let wall = Date().timeIntervalSince(start)
    let cpu = Double(run.text.prefix { $0 != "\n" }) ?? .infinity
    return (cpu, wall, run)
  }

  @Test func entryPlaylistPastItsResourceTimeoutExitsTwoWithoutSpinning() throws {
    let server = try Self.tricklingServer(try served(), slow: "master.m3u8", interval: 0.5)
    defer { server.stop() }
    let (cpu, wall, run) = try timed(["--resource-timeout", "5", "\(server.base)/clip/master.m3u8"])
    #expect(run.status == 2, "\(run.stderr)")
    #expect(run.stderr.contains("not complete within the --resource-timeout of 5 s"), "\(run.stderr)")
    #expect(wall >= 5 && wall < 60, "\(wall) s")
    // Under 5 % of one core while waiting (process start-up included).
    #expect(cpu < 0.05 * wall, "\(cpu) s of CPU in \(wall) s")
  }

  @Test func segmentPastItsResourceTimeoutIsMustFix() throws {
    let server = try Self.tricklingServer(try served(), slow: "segment_00001.ts", interval: 0.2)
    defer { server.stop() }
    let run = try Command.run(
      try Fixtures.executable(), ["verify", "--json", "--resource-timeout", "1", "\(server.base)/clip/master.m3u8"])
    #expect(run.status == 1, "\(run.stderr)")
    #expect(
      run.text.contains("\"segment.unreadable\"") && run.text.contains("--resource-timeout of 1 s"), "\(run.text)")
  }

  @Test func runPastItsTimeoutStopsWithExitTwo() throws {
    let server = try Self.tricklingServer(try served(), slow: ".ts", interval: 0.2)
    defer { server.stop() }
    let start = Date()
    let run = try Command.run(
      try Fixtures.executable(), ["verify", "--timeout", "2", "\(server.base)/clip/master.m3u8"])
    #expect(run.status == 2, "\(run.text) \(run.stderr)")
    #expect(run.stderr.contains("verify stopped, the run's --timeout of 2 s ran out"), "\(run.stderr)")
    #expect(Date().timeIntervalSince(start) < 60)
  }

  @Test func timeoutsMustBePositive() throws {
    for option in ["--timeout", "--resource-timeout"] {
      for value in ["0", "-1", "nan", "1e300"] {
        let run = try Command.run(try Fixtures.executable(), ["verify", "\(option)=\(value)", "http://127.0.0.1:9/"])
        #expect(run.status == 64, "\(option) \(value): \(run.stderr)")
      }
    }
  }
}
