import Foundation
import HLSPackTestSupport
import Testing

/// A command started with standard error closed (`2>&-`, as some supervisors
/// start daemons) still exits with its own status: the message it cannot
/// write is dropped, never a crash.
@Suite("hlspack with standard error closed")
struct ClosedStandardErrorTests {
  @Test(arguments: [
    (["verify", "/nonexistent/master.m3u8"], Int32(2)),
    (["encode", "--profile", "/nonexistent/profile.json"], Int32(2)),
  ])
  func theExitStatusIsTheCommandsOwn(arguments: [String], status: Int32) throws {
    let words = ([try Fixtures.executable()] + arguments).map { "'\($0)'" }.joined(separator: " ")
    let run = try Command.run("/bin/sh", ["-c", "exec \(words) 2>&-"])
    #expect(run.status == status, "stdout: \(String(decoding: run.stdout, as: UTF8.self))")
  }
}
