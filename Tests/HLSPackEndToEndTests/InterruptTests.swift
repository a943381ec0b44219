import Foundation
import Testing

/// SIGINT while `hlspack encode` runs: exit 130 and nothing unfinished left,
/// whenever it arrives (README, Exit status).
@Suite("hlspack interrupted")
struct InterruptTests {
  /// Starts hlspack with no signal blocked, as a shell does. The test
  /// runner's threads block most signals and a child inherits the mask of the
  /// thread that starts it, so it is started from a thread that blocks none.
  func start(_ arguments: [String]) throws -> Process {
    final class Launch: @unchecked Sendable {
      let process = Process()
      var failure: Error?
      let done = DispatchSemaphore(value: 0)
    }
    let launch = Launch()
    launch.process.executableURL = URL(fileURLWithPath: try Fixtures.executable())
    launch.process.arguments = arguments
    launch.process.standardOutput = FileHandle.nullDevice
    launch.process.standardError = FileHandle.nullDevice
    launch.process.standardInput = FileHandle.nullDevice
    Thread.detachNewThread {
      var none = sigset_t()
      sigemptyset(&none)
      pthread_sigmask(SIG_SETMASK, &none, nil)
      do { try launch.process.run() } catch { launch.failure = error }
      launch.done.signal()
    }
    launch.done.wait()
    if let failure = launch.failure { throw failure }
    return launch.process
  }

  func hidden(in folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix(".") }
  }

  /// Interrupted 0-50 ms after the staging folder appears: while keys and
  /// the first segments are written and FFmpeg's threads start, or (copying
  /// the short clip) while the asset is published. Before the fix such runs
  /// left the staging folder (with key files), exited 1 (the handler had
  /// removed the folder under the run) or 139 (exit() ran destructors under
  /// FFmpeg's threads), or lost the signal; how often depends on the load.
  @Test func interruptedJustAfterStagingBeganExits130AndLeavesNothing() throws {
    let scratch = try Fixtures.scratchFolder()
    let profiles = [
      try Fixtures.profile(in: scratch),
      scratch.appendingPathComponent("copy.json"),
    ]
    try Data(
      #"{"version": 1, "segment": {"duration": 1}, "video": [{"name": "main", "codec": "copy"}], "audio": {"codec": "copy"}, "encryption": {"method": "aes-128"}}"#
        .utf8
    ).write(to: profiles[1])
    for attempt in 0..<12 {
      let output = scratch.appendingPathComponent("out\(attempt)")
      let profile = profiles[attempt % 2]
      let process = try start(["encode", "--profile", profile.path, "--output", output.path, try Fixtures.clip().path])
      while process.isRunning, hidden(in: output).isEmpty { usleep(100) }
      usleep(UInt32.random(in: 0...50_000))
      process.interrupt()
      process.waitUntilExit()
      #expect(process.terminationReason == .exit, "attempt \(attempt): killed by a signal")
      let published = FileManager.default.fileExists(atPath: output.appendingPathComponent("clip/master.m3u8").path)
      #expect(process.terminationStatus == 130 || (process.terminationStatus == 0 && published),
        "attempt \(attempt): exit \(process.terminationStatus)")
      #expect(hidden(in: output).isEmpty, "attempt \(attempt): left behind \(hidden(in: output))")
    }
  }
}
