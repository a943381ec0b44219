import Foundation
import HLSPackTestSupport
import Testing

/// `hlspack batch` as a catalog pipeline runs it: shards as concurrent
/// processes on one output folder, resumed after SIGKILL, reruns that skip what
/// is up to date and remake only what changed (docs/batch.md).
@Suite("hlspack batch")
struct BatchTests {
  struct Catalog {
    var folder: URL
    var manifest: URL
    var profile: URL
    var output: URL
    var names: [String]
  }

  /// `count` copies of the clip, a JSON Lines manifest of them and a copy-mode AES-128 profile.
  func catalog(_ count: Int, _ name: String = #function) throws -> Catalog {
    let folder = try ScratchFolder.make(name)
    let names = (1...count).map { String(format: "title-%02d", $0) }
    for title in names {
      try FileManager.default.copyItem(at: try Fixtures.clip(), to: folder.appendingPathComponent("\(title).mp4"))
    }
    let manifest = folder.appendingPathComponent("catalog.jsonl")
    try Data(names.map { #"{"input": "\#($0).mp4"}"# + "\n" }.joined().utf8).write(to: manifest)
    let profile = folder.appendingPathComponent("copy.json")
    try Data(
      #"{"version": 1, "segment": {"duration": 2}, "video": [{"name": "src", "codec": "copy"}], "audio": {"codec": "copy"}, "encryption": {"method": "aes-128"}}"#
        .utf8
    ).write(to: profile)
    return Catalog(
      folder: folder, manifest: manifest, profile: profile, output: folder.appendingPathComponent("out"), names: names)
  }

  func arguments(_ c: Catalog, _ extra: [String] = []) -> [String] {
    ["batch", "--manifest", c.manifest.path, "--profile", c.profile.path, "--output", c.output.path] + extra
  }

  func report(_ c: Catalog, shard: Int = 0) throws -> [String: Any] {
    let data = try Data(contentsOf: c.output.appendingPathComponent("batch-report-\(shard).json"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  func statuses(_ report: [String: Any]) -> [String: String] {
    let assets = (report["assets"] as? [[String: Any]]) ?? []
    return Dictionary(
      uniqueKeysWithValues: assets.compactMap { a in (a["asset"] as? String).map { ($0, a["status"] as? String ?? "") }
      })
  }

  func events(_ result: CommandResult) -> [(event: String, asset: String)] {
    result.text.split(separator: "\n").compactMap { line in
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let event = object["event"] as? String, event != "progress", let asset = object["asset"] as? String
      else { return nil }
      return (event, asset)
    }
  }

  func decodes(_ asset: URL) throws -> Bool {
    let run = try Command.run(
      "ffmpeg",
      [
        "-v", "error", "-allowed_extensions", "ALL", "-i", asset.appendingPathComponent("master.m3u8").path, "-map",
        "0", "-f", "null", "-",
      ])
    return run.status == 0 && run.stderr.isEmpty
  }

  @Test func threeShardsAsConcurrentProcessesPublishEveryAssetOnce() throws {
    let c = try catalog(12)
    let processes = try (0..<3).map { index -> Process in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: try Fixtures.executable())
      process.arguments = arguments(c, ["--progress", "none"])
      process.environment = ProcessInfo.processInfo.environment.merging(
        ["JOB_COMPLETION_INDEX": "\(index)", "HLSPACK_SHARDS": "3"]) { $1 }
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      return process
    }
    for process in processes { process.waitUntilExit() }
    #expect(processes.map(\.terminationStatus) == [0, 0, 0])
    let reports = try (0..<3).map { try statuses(report(c, shard: $0)) }
    let covered = reports.flatMap(\.keys).sorted()
    #expect(covered == c.names, "each asset in exactly one shard's report")
    #expect(reports.allSatisfy { $0.values.allSatisfy { $0 == "published" } })
    #expect(reports.allSatisfy { !$0.isEmpty }, "12 names spread over 3 shards: \(reports.map(\.count))")
    let published = try FileManager.default.contentsOfDirectory(atPath: c.output.path).filter {
      !$0.hasPrefix("batch-report-")
    }
    #expect(published.sorted() == c.names, "no staging leftovers, nothing twice")
    for name in c.names { #expect(try decodes(c.output.appendingPathComponent(name)), "\(name)") }
  }

  @Test func aRerunSkipsWhatIsUpToDateAndRemakesOnlyWhatChanged() throws {
    let c = try catalog(4)
    let first = try Command.run(try Fixtures.executable(), arguments(c, ["--progress", "json"]))
    #expect(first.status == 0, "\(first.stderr)")
    #expect(Set(events(first).filter { $0.event == "done" }.map(\.asset)) == Set(c.names))
    func inode(_ name: String) throws -> Int {
      try #require(
        try FileManager.default.attributesOfItem(atPath: c.output.appendingPathComponent(name).path)[.systemFileNumber]
          as? Int)
    }
    let before = try c.names.map(inode)

    let rerun = try Command.run(try Fixtures.executable(), arguments(c, ["--progress", "json"]))
    #expect(rerun.status == 0, "\(rerun.stderr)")
    #expect(events(rerun).map(\.event) == Array(repeating: "skipped", count: 4), "no asset started, nothing decoded")
    #expect(try c.names.map(inode) == before)
    #expect(try statuses(report(c)).values.allSatisfy { $0 == "skipped" })

    // New content for one title (the same pictures, another container header).
    let changed = c.folder.appendingPathComponent("title-03.mp4")
    let remuxed = c.folder.appendingPathComponent("remuxed.mp4")
    try Fixtures.ffmpeg(["-i", changed.path, "-map", "0", "-c", "copy", "-metadata", "title=new cut", remuxed.path])
    #expect(rename(remuxed.path, changed.path) == 0)
    let third = try Command.run(try Fixtures.executable(), arguments(c, ["--progress", "json"]))
    #expect(third.status == 0, "\(third.stderr)")
    #expect(events(third).filter { $0.event == "done" }.map(\.asset) == ["title-03"])
    let assets = try #require(try report(c)["assets"] as? [[String: Any]])
    #expect(assets.first { $0["asset"] as? String == "title-03" }?["reason"] as? String == "the input changed")
    #expect(
      try c.names.map(inode).enumerated().allSatisfy {
        $0.offset == 2 ? $0.element != before[2] : $0.element == before[$0.offset]
      })

    // A changed profile remakes everything; --force too.
    try Data(
      try String(contentsOf: c.profile, encoding: .utf8).replacingOccurrences(
        of: #""duration": 2"#, with: #""duration": 1"#
      ).utf8
    )
    .write(to: c.profile)
    let fourth = try Command.run(try Fixtures.executable(), arguments(c, ["--progress", "json"]))
    #expect(Set(events(fourth).filter { $0.event == "done" }.map(\.asset)) == Set(c.names))
    let forced = try Command.run(try Fixtures.executable(), arguments(c, ["--progress", "json", "--force"]))
    #expect(Set(events(forced).filter { $0.event == "done" }.map(\.asset)) == Set(c.names))
  }

  @Test func aShardKilledMidAssetRedoesOnlyWhatItHadNotPublished() throws {
    let c = try catalog(6)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try Fixtures.executable())
    process.arguments = arguments(c, ["--progress", "json", "--jobs", "1"])
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Killed as the third asset starts.
    var text = ""
    while text.components(separatedBy: #""event":"start""#).count <= 3 {
      let data = out.fileHandleForReading.availableData
      guard !data.isEmpty else { break }
      text += String(decoding: data, as: UTF8.self)
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)
    let published = try FileManager.default.contentsOfDirectory(atPath: c.output.path).filter { !$0.hasPrefix(".") }
      .sorted()
    #expect(published.count >= 2 && published.count < 6, "\(published)")
    let left = try FileManager.default.contentsOfDirectory(atPath: c.output.path).filter { $0.hasPrefix(".") }
    #expect(left.contains { $0.contains(".partial-") }, "the killed run's staging folder: \(left)")

    let rerun = try Command.run(try Fixtures.executable(), arguments(c, ["--progress", "json", "--jobs", "1"]))
    #expect(rerun.status == 0, "\(rerun.stderr)")
    // Before, no rerun removed the killed run's staging folder (with its keys): now the rerun does, saying so.
    let hidden = try FileManager.default.contentsOfDirectory(atPath: c.output.path).filter { $0.hasPrefix(".") }
    #expect(hidden.isEmpty, "left behind: \(hidden)")
    #expect(rerun.stderr.contains("left by a killed hlspack run"), "\(rerun.stderr)")
    let made = events(rerun).filter { $0.event == "done" }.map(\.asset)
    #expect(Set(made) == Set(c.names).subtracting(published))
    #expect(Set(events(rerun).filter { $0.event == "skipped" }.map(\.asset)) == Set(published))
    for name in c.names { #expect(try decodes(c.output.appendingPathComponent(name)), "\(name)") }
  }

  @Test func badManifestsExitTwoNamingTheLineAndNothingIsDone() throws {
    let c = try catalog(1)
    let cases: [(String, String)] = [
      ("bad.jsonl", "{\"input\": \"title-01.mp4\", \"key_hex\": \"abc\"}\n"),
      ("bad.jsonl", "{\"input\": \"title-01.mp4\", \"subtitles\": \"x.vtt\"}\n"),
    ]
    for (name, text) in cases {
      let manifest = c.folder.appendingPathComponent(name)
      try Data(text.utf8).write(to: manifest)
      let run = try Command.run(
        try Fixtures.executable(),
        ["batch", "--manifest", manifest.path, "--profile", c.profile.path, "--output", c.output.path])
      #expect(run.status == 2)
      #expect(run.stderr.contains("\(manifest.path):1: "), "\(run.stderr)")
      #expect(!FileManager.default.fileExists(atPath: c.output.path))
    }
  }

  /// `--profile <(make-profile)`: a pipe can be read once only, so every
  /// line must be planned from that one reading (a second one reads nothing
  /// and fails as invalid JSON).
  @Test func theDefaultProfileIsReadOnceForEveryLine() throws {
    let c = try catalog(2)
    let run = try Command.run(
      "bash",
      [
        "-c", #"exec "$0" batch --manifest "$1" --profile <(cat "$2") --output "$3" --progress none"#,
        try Fixtures.executable(), c.manifest.path, c.profile.path, c.output.path,
      ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try statuses(report(c)) == ["title-01": "published", "title-02": "published"])
  }

  @Test func aFailedAssetDoesNotStopTheOthersAndExitsOne() throws {
    let c = try catalog(2)
    try Data("not a movie".utf8).write(to: c.folder.appendingPathComponent("title-01.mp4"))
    let run = try Command.run(try Fixtures.executable(), arguments(c))
    #expect(run.status == 1)
    #expect(run.stderr.contains("title-01"), "\(run.stderr)")
    #expect(try statuses(report(c)) == ["title-01": "failed", "title-02": "published"])
  }
}
