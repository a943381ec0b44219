import Foundation
import HLSPackTestSupport
import Testing

/// Two `hlspack batch` runs at once into one output folder whose manifests
/// name the same assets with different inputs (README, "Catalogs"): each
/// asset is made and reported by one run only, holds that run's input, and
/// each run keeps its own report.
@Suite("hlspack batch, runs at once")
struct BatchConcurrencyTests {
  let batch = BatchTests()

  /// Before, both runs exited 0 reporting every asset "published", each
  /// replacing the other's work, and the one batch-report-0.json described
  /// whichever run wrote last.
  @Test func twoRunsWhoseManifestsShareAssetNamesNeverBothReportOne() throws {
    let c = try batch.catalog(1)
    let names = (1...12).map { String(format: "t%02d", $0) }
    let other = c.folder.appendingPathComponent("other.mp4")
    try Fixtures.ffmpeg([
      "-i", c.folder.appendingPathComponent("title-01.mp4").path, "-map", "0", "-c", "copy", "-metadata",
      "title=other cut", other.path,
    ])
    let first = c.folder.appendingPathComponent("first.jsonl")
    let second = c.folder.appendingPathComponent("second.jsonl")
    try Data(names.map { #"{"input": "title-01.mp4", "asset": "\#($0)"}"# + "\n" }.joined().utf8).write(to: first)
    try Data(names.reversed().map { #"{"input": "other.mp4", "asset": "\#($0)"}"# + "\n" }.joined().utf8)
      .write(to: second)

    // The second starts once the first is making its first asset: the runs overlap.
    let a = try startBatch(first, profile: c.profile, output: c.output)
    var aText = ""
    while !aText.contains(#""event":"start""#) {
      let data = a.out.fileHandleForReading.availableData
      guard !data.isEmpty else { break }
      aText += String(decoding: data, as: UTF8.self)
    }
    let b = try startBatch(second, profile: c.profile, output: c.output)
    let bText = String(decoding: b.out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    aText += String(decoding: a.out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let aErr = String(decoding: a.err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let bErr = String(decoding: b.err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    a.process.waitUntilExit()
    b.process.waitUntilExit()

    let reports = try FileManager.default.contentsOfDirectory(atPath: c.output.path)
      .filter { $0.hasPrefix("batch-report-0") }.sorted()
    #expect(reports.count == 2, "one report per run: \(reports)")
    var publishedBy: [String: [String]] = [:]
    for name in reports {
      let data = try Data(contentsOf: c.output.appendingPathComponent(name))
      let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      let manifest = try #require(report["manifest"] as? String)
      let assets = try #require(report["assets"] as? [[String: Any]])
      #expect(assets.count == 12, "\(name) describes its own run's 12 assets")
      for asset in assets {
        let title = asset["asset"] as? String ?? "?"
        if asset["status"] as? String == "published" {
          publishedBy[title, default: []].append(manifest)
          let input = manifest.hasSuffix("first.jsonl") ? "title-01.mp4" : "other.mp4"
          let record = try String(
            contentsOf: c.output.appendingPathComponent("\(title)/provenance.json"), encoding: .utf8)
          #expect(record.contains("/\(input)\""), "\(title) holds the input of the run that reports it")
        } else {
          #expect(asset["status"] as? String == "failed")
          #expect((asset["error"] as? String ?? "").contains("another hlspack run"), "\(asset)")
        }
      }
    }
    #expect(Set(publishedBy.keys) == Set(names), "every asset made by one of the runs")
    #expect(publishedBy.values.allSatisfy { $0.count == 1 }, "no asset reported by both runs: \(publishedBy)")
    // The run that lost an asset says so, naming it, and exits 1.
    for (run, text, err) in [(a.process, aText, aErr), (b.process, bText, bErr)] where run.terminationStatus != 0 {
      #expect(run.terminationStatus == 1)
      #expect(err.contains("another hlspack run"), "\(err)")
      #expect(text.contains(#""event":"failed""#))
    }
    #expect(
      a.process.terminationStatus == 1 || b.process.terminationStatus == 1, "the runs met in the middle: \(publishedBy)"
    )
    let hidden = try FileManager.default.contentsOfDirectory(atPath: c.output.path).filter { $0.hasPrefix(".") }
    #expect(hidden.isEmpty, "no lock or staging left: \(hidden)")
  }

  /// Starts `hlspack batch` on `manifest` with JSON progress, one job, without waiting for it.
  private func startBatch(_ manifest: URL, profile: URL, output: URL) throws -> (process: Process, out: Pipe, err: Pipe) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try Fixtures.executable())
    process.arguments = [
      "batch", "--manifest", manifest.path, "--profile", profile.path, "--output", output.path, "--jobs", "1",
      "--progress", "json",
    ]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    return (process, out, err)
  }
}

/// What a run killed with SIGKILL leaves, and what a rerun removes.
@Suite("hlspack rewrite-keys killed in place")
struct RewriteKeysKilledTests {
  func temporaries(in package: URL) -> [String] {
    (FileManager.default.enumerator(atPath: package.path)?.allObjects as? [String] ?? []).filter {
      let name = ($0 as NSString).lastPathComponent
      return name.contains(".rewrite-") || name.contains(".previous-") || name == ".hlspack-rewrite-keys.lock"
    }.sorted()
  }

  /// Killed while its renames wait (strace delays each by 1 s): its new
  /// versions and copies of old files stay hidden in the package. Before, a
  /// successful rerun named them and left them; now it removes them.
  @Test(.enabled(if: InterruptTests.canDelayRenames))
  func aRerunRemovesTheTemporariesOfAKilledInPlaceRewrite() throws {
    let (package, _) = try RewriteKeysHardeningTests().package()
    let launcher = InterruptTests()
    let strace = try launcher.start(
      [
        "-f", "-qq", "-o", "/dev/null", "-e", "inject=\(InterruptTests.renameCalls):delay_exit=1000000",
        try Fixtures.executable(), "rewrite-keys", package.path, "--uri", "skd://{key_id}",
      ],
      executable: try Command.which("strace"))
    while strace.isRunning, !temporaries(in: package).contains(where: { $0.contains(".previous-") }) { usleep(1000) }
    // Every temporary is written before the first (delayed) rename.
    usleep(300_000)
    let tracer = strace.processIdentifier
    let children = try String(contentsOfFile: "/proc/\(tracer)/task/\(tracer)/children", encoding: .utf8)
    let hlspack = try #require(children.split(separator: " ").first.flatMap { Int32($0) })
    kill(hlspack, SIGKILL)
    strace.waitUntilExit()
    let left = temporaries(in: package)
    #expect(left.contains { $0.contains(".rewrite-") } && left.contains { $0.contains(".previous-") }, "\(left)")

    let rerun = try RewriteKeysTests().rewrite(package, "skd://{key_id}")
    #expect(rerun.status == 0, "\(rerun.stderr)")
    #expect(temporaries(in: package).isEmpty, "left behind: \(temporaries(in: package))")
    #expect(rerun.stderr.contains("temporaries of a killed rewrite-keys run"), "\(rerun.stderr)")
    #expect(try String(contentsOf: package.appendingPathComponent("index.m3u8"), encoding: .utf8).contains("skd://"))
  }

  /// Temporaries no journal lists (another tool's, or a run before this
  /// change) are only named, never removed.
  @Test func temporariesNoKilledRunListedAreKept() throws {
    let (package, _) = try RewriteKeysHardeningTests().package()
    let planted = package.appendingPathComponent(".index.m3u8.rewrite-1A2B3C4D")
    try Data("mine".utf8).write(to: planted)
    let run = try RewriteKeysTests().rewrite(package, "skd://{key_id}")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: planted.path))
    #expect(run.stderr.contains(planted.path), "\(run.stderr)")
  }
}
