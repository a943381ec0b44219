import Foundation
import HLSPackTestSupport
import Testing

extension InterruptTests {
  /// SIGINT while `hlspack fixture make` packages a fixture: exit 130, and its
  /// staging folder beside DIR is removed with everything in it; DIR is not made.
  @Test func anInterruptedFixtureMakeLeavesNoStagingFolder() throws {
    let scratch = try ScratchFolder.make("fixture-interrupt")
    let output = scratch.appendingPathComponent("fixtures")
    let process = try start(["fixture", "make", "--output", output.path, "--duration", "4", "--only", "clear-ts"])
    func packaging() -> Bool {
      let staging = (try? FileManager.default.contentsOfDirectory(atPath: scratch.path))?.first
      return staging.map { FileManager.default.fileExists(atPath: scratch.path + "/\($0)/clear-ts") } ?? false
    }
    while process.isRunning, !packaging() { usleep(1000) }
    let interrupted = process.isRunning
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    try #require(interrupted, "fixture make ended before it was interrupted")
    #expect(process.terminationStatus == 130)
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
  }
}
