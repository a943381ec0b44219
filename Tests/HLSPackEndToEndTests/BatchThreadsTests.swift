import Foundation
import HLSPackTestSupport
import Testing

/// `batch --jobs N` shares the usable cores among its jobs (docs/batch.md): each job's decoder and encoders get its share, so two assets
/// at once on two cores run about as many threads as one asset alone. x265
/// sizes its thread pool from the machine, not from FFmpeg's thread count, and
/// the video decoder chose its own count: two HEVC assets ran twice the threads.
@Suite("batch threads")
struct BatchThreadsTests {
  /// The highest thread count of `hlspack arguments`, pinned to two cores.
  func peakThreads(_ arguments: [String]) throws -> Int {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try Command.which("taskset"))
    process.arguments = ["-c", "0,1", try Fixtures.executable()] + arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    var peak = 0
    while process.isRunning {
      let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
      for line in status.split(separator: "\n") where line.hasPrefix("Threads:") {
        peak = max(peak, Int(line.dropFirst(8).trimmingCharacters(in: .whitespaces)) ?? 0)
      }
      usleep(20_000)
    }
    #expect(process.terminationStatus == 0, "\(arguments)")
    return peak
  }

  @Test(.enabled(if: ProcessInfo.processInfo.activeProcessorCount >= 2 && (try? Command.which("taskset")) != nil))
  func twoHEVCAssetsAtOnceShareTheCoresOfOne() throws {
    let folder = try ScratchFolder.make()
    for name in ["a", "b"] {
      try FileManager.default.copyItem(at: try Fixtures.clip(), to: folder.appendingPathComponent("\(name).mp4"))
    }
    let one = folder.appendingPathComponent("one.jsonl")
    let two = folder.appendingPathComponent("two.jsonl")
    try Data(#"{"input": "a.mp4"}"#.utf8).write(to: one)
    try Data("{\"input\": \"a.mp4\"}\n{\"input\": \"b.mp4\"}\n".utf8).write(to: two)
    let profile = folder.appendingPathComponent("hevc.json")
    try Data(
      #"{"version": 1, "segment": {"duration": 4, "container": "fmp4"}, "video": [{"name": "v", "codec": "hevc", "width": 320, "height": 180, "bitrate": 300000, "preset": "ultrafast"}]}"#
        .utf8
    ).write(to: profile)
    func batch(_ manifest: URL, jobs: Int) -> [String] {
      [
        "batch", "--manifest", manifest.path, "--profile", profile.path, "--progress", "none", "--jobs", "\(jobs)",
        "--output", folder.appendingPathComponent("out-\(jobs)").path,
      ]
    }
    let alone = try peakThreads(batch(one, jobs: 1))
    let together = try peakThreads(batch(two, jobs: 2))
    // Measured: 10 alone, 12 together (20 before the decoder and x265 shared).
    #expect(together <= alone + 4, "one asset: \(alone) threads, two at once: \(together)")
  }
}
