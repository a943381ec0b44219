import Foundation
import HLSPackTestSupport
import Testing

/// Where `encode` and `batch` put a package and how they name it (README,
/// "Output"): the user's own inputs land in ./out where the user runs, a
/// profile's own inputs beside the profile as before; every published
/// master.m3u8 is printed, and named by the `done` event, as a path the user
/// can open from there; names never reach the terminal raw.
@Suite("hlspack output location and names")
struct OutputLocationTests {
  /// `scratch/shared/profile.json` (copy mode, `"output": "../clone-out"`,
  /// `"inputs": ["clip.mp4"]` beside it), and `scratch/work`, where the user runs.
  func layout(_ name: String = #function) throws -> (scratch: URL, profile: URL, work: URL) {
    let scratch = try ScratchFolder.make(name)
    let shared = scratch.appendingPathComponent("shared")
    let work = scratch.appendingPathComponent("work")
    for folder in [shared, work] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
    try FileManager.default.copyItem(at: try Fixtures.clip(), to: shared.appendingPathComponent("clip.mp4"))
    try FileManager.default.copyItem(at: try Fixtures.clip(), to: work.appendingPathComponent("mine.mp4"))
    let profile = shared.appendingPathComponent("profile.json")
    try Data(
      #"{"version": 1, "inputs": ["clip.mp4"], "output": "../clone-out", "segment": {"duration": 2}, "video": [{"name": "src", "codec": "copy"}], "audio": {"codec": "copy"}, "encryption": {"method": "aes-128"}}"#
        .utf8
    ).write(to: profile)
    return (scratch, profile, work)
  }

  func run(in folder: URL, _ arguments: [String]) throws -> CommandResult {
    try Fixtures.hlspack(after: "cd '\(folder.path)'", arguments)
  }

  /// Before, `encode --profile shared/profile.json mine.mp4` wrote into the
  /// profile's "output" (the clone's out/), wherever the user ran it.
  @Test func inputsNamedOnTheCommandLineGoToOutWhereTheUserRuns() throws {
    let (scratch, profile, work) = try layout()
    let mine = try run(in: work, ["encode", "--profile", profile.path, "mine.mp4"])
    #expect(mine.status == 0, "\(mine.stderr)")
    #expect(mine.text == "out/mine/master.m3u8\n")
    #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("out/mine/master.m3u8").path))
    #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("clone-out").path))

    // The profile's own inputs still go to its "output", printed as a path from where the user is.
    let own = try run(in: work, ["encode", "--profile", profile.path])
    #expect(own.status == 0, "\(own.stderr)")
    let master = scratch.appendingPathComponent("clone-out/clip/master.m3u8")
    #expect(FileManager.default.fileExists(atPath: master.path))
    #expect(own.text == master.path + "\n", "outside the current folder: absolute")
  }

  /// The `done` event had no path; batch printed no master.m3u8 at all.
  @Test func theDoneEventAndThePlainOutputNameEachMasterPlaylist() throws {
    let (_, profile, work) = try layout()
    let json = try run(in: work, ["encode", "--profile", profile.path, "--progress", "json", "mine.mp4"])
    #expect(json.status == 0, "\(json.stderr)")
    let done = json.text.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }.filter { $0["event"] as? String == "done" }
    #expect(done.count == 1 && done.first?["master"] as? String == "out/mine/master.m3u8", "\(json.text)")

    try Data(#"{"input": "mine.mp4", "asset": "-dash"}"#.utf8).write(to: work.appendingPathComponent("c.jsonl"))
    let plain = try run(in: work, ["batch", "--manifest", "c.jsonl", "--profile", profile.path])
    #expect(plain.status == 0, "\(plain.stderr)")
    #expect(
      plain.text == "out/-dash/master.m3u8\n1 published, 0 up to date, 0 failed: out/batch-report-0.json\n",
      "batch ignores the profile's output: its inputs come from the manifest")
    let events = try run(in: work, ["batch", "--manifest", "c.jsonl", "--profile", profile.path, "--force", "--progress", "json"])
    #expect(events.text.contains(#""master":"out/-dash/master.m3u8""#), "\(events.text)")
  }

  /// Names with control or format characters were printed raw: an escape
  /// sequence in a folder's name reached the terminal, a right-to-left
  /// override showed a name reversed.
  @Test func namesAreEscapedInEverythingBatchPrints() throws {
    let (_, profile, work) = try layout()
    let folder = work.appendingPathComponent("in\u{1B}[2J")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("not a movie".utf8).write(to: folder.appendingPathComponent("bad.mp4"))
    let manifest = """
      {"input": "in\\u001b[2J/bad.mp4"}
      {"input": "mine.mp4", "asset": "evil\\u202Ecba\\u009B"}

      """
    try Data(manifest.utf8).write(to: work.appendingPathComponent("c.jsonl"))
    for mode in ["none", "bar"] {
      let result = try run(
        in: work, ["batch", "--manifest", "c.jsonl", "--profile", profile.path, "--progress", mode, "--force"])
      #expect(result.status == 1, "\(result.stderr)")
      for (stream, text) in [("stdout", result.text), ("stderr", result.stderr)] {
        let raw = text.unicodeScalars.filter { ["\u{1B}", "\u{202E}", "\u{9B}"].contains($0) }
        // The bar's own redraw sequence (ESC [2K after a carriage return) is the only escape sent.
        let own = text.components(separatedBy: "\r\u{1B}[2K").count - 1
        #expect(raw.count == own, "\(mode) \(stream): \(text.debugDescription)")
      }
      #expect(result.stderr.contains(#"in\u{1B}[2J/bad.mp4"#), "\(result.stderr.debugDescription)")
      #expect(result.text.contains(#"out/evil'$'\342\200\256''cba'$'\302\233''/master.m3u8"#), "\(result.text.debugDescription)")
    }
    // A name the manifest refuses is escaped in the refusal too.
    try Data(#"{"input": "mine.mp4", "asset": "x\u001b[31mred"}"#.utf8).write(to: work.appendingPathComponent("d.jsonl"))
    let refused = try run(in: work, ["batch", "--manifest", "d.jsonl", "--profile", profile.path])
    #expect(refused.status == 2 && refused.stderr.contains(#"x\u{1B}[31mred"#), "\(refused.stderr.debugDescription)")
    #expect(!refused.stderr.unicodeScalars.contains("\u{1B}"))
  }
}
