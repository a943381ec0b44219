import Foundation
import HLSPack
import HLSPackCore
import HLSPackTestSupport
import Testing

/// `hlspack fixture make` on one short fixture, its refusals, and `hlspack
/// fixture check` on recordings made from the fixture with the ffmpeg CLI.
@Suite("hlspack fixture")
struct FixtureCommandTests {
  static func hlspack(_ arguments: [String]) throws -> CommandResult {
    try Command.run(try Fixtures.executable(), arguments)
  }

  /// A 6 s clear-ts fixture (150 frames, at least one sync event).
  static let made: Result<URL, Error> = Result {
    let folder = try ScratchFolder.make("fixture-make").appendingPathComponent("fixtures")
    let run = try hlspack(["fixture", "make", "--output", folder.path, "--duration", "6", "--only", "clear-ts"])
    guard run.status == 0 else { throw FixtureError("fixture make: \(run.stderr)") }
    return folder
  }

  @Test func makesTheDatabaseTheCatalogueAndAPackageThatDecodes() throws {
    let folder = try Self.made.get()
    let database = try FixtureDatabase.read(from: folder.appendingPathComponent("fixtures.json"))
    #expect(database.fps == 25 && database.duration == 6)
    #expect(!database.syncEvents.isEmpty)
    #expect(database.fixtures.map(\.id) == ["clear-ts"])
    let master = try #require(database.fixtures.first?.master)
    #expect(database.fixtures.first?.frames == 150)
    let decode = try Command.run(
      "ffprobe",
      ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0",
       folder.appendingPathComponent(master).path])
    #expect(decode.text.split(separator: "\n").first == "150", "\(decode.text)")
    let html = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
    #expect(html.contains("id=\"clear-ts\"") && html.contains("<video") && !html.contains("<script"))
    // Staged beside the output and moved into place: nothing else is left there.
    let beside = try FileManager.default.contentsOfDirectory(atPath: folder.deletingLastPathComponent().path)
    #expect(!beside.contains { $0.hasPrefix(".fixtures.staging") }, "\(beside)")
  }

  @Test(arguments: [
    (["--duration", "0"], "--duration must be from 1 to 600"),
    (["--duration=-3"], "--duration must be from 1 to 600"),
    (["--duration", "100000"], "--duration must be from 1 to 600"),
    (["--only", "clear-ts,nope"], "unknown fixture \"nope\""),
  ])
  func refusesBadInputAndWritesNothing(arguments: [String], message: String) throws {
    let scratch = try ScratchFolder.make("fixture-refusal")
    let output = scratch.appendingPathComponent("out")
    let run = try Self.hlspack(["fixture", "make", "--output", output.path] + arguments)
    #expect(run.status == 2)
    #expect(run.stderr.contains(message), "\(run.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
  }

  @Test func refusesAnOutputThatIsAFileAndASourceThatDoesNotDecode() throws {
    let scratch = try ScratchFolder.make("fixture-refusal-files")
    let file = scratch.appendingPathComponent("notes.txt")
    try Data("not media\n".utf8).write(to: file)
    let onFile = try Self.hlspack(["fixture", "make", "--output", file.path, "--duration", "2"])
    #expect(onFile.status == 2 && onFile.stderr.contains("is a file"), "\(onFile.stderr)")
    let badSource = try Self.hlspack(
      ["fixture", "make", "--output", scratch.appendingPathComponent("out").path, "--source", file.path])
    #expect(badSource.status == 2 && badSource.stderr.contains("--source"), "\(badSource.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["notes.txt"])
  }

  /// A recording of the fixture with frames 100-102 frozen on frame 99 and the sound 80 ms late.
  @Test func checkFindsTheFrozenFramesAndTheLateSound() throws {
    let folder = try Self.made.get()
    let recording = folder.deletingLastPathComponent().appendingPathComponent("recording.mkv")
    let record = try Command.run(
      "ffmpeg",
      ["-nostdin", "-v", "error", "-y", "-i", folder.appendingPathComponent("clear-ts/labelled/360p/index.m3u8").path,
       "-filter_complex", "[0:v]split[a][b];[a][b]freezeframes=first=100:last=102:replace=99[v]", "-map", "[v]",
       "-map", "0:a", "-af", "adelay=80:all=1",
       "-c:v", "ffv1", "-c:a", "pcm_s16le", recording.path])
    try #require(record.status == 0, "\(record.stderr)")
    let run = try Self.hlspack(["fixture", "check", recording.path, "--json"])
    #expect(run.status == 0, "\(run.stderr)")
    let report = try JSONDecoder().decode(PlaybackReport.self, from: run.stdout)
    #expect(report.missingFrames == [100, 101, 102])
    #expect(report.repeatedFrames == [99])
    #expect(report.renditions == ["360p"])
    let offset = try #require(report.avOffsetMs)
    #expect(abs(offset - 80) <= 40, "av_offset_ms \(offset)")
  }

  @Test func checkExitsOneWithoutCodesAndTwoOnAFileThatIsNotMedia() throws {
    let scratch = try ScratchFolder.make("fixture-check-exits")
    let plain = scratch.appendingPathComponent("plain.mkv")
    let make = try Command.run(
      "ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=1", "-c:v", "ffv1", plain.path])
    try #require(make.status == 0, "\(make.stderr)")
    let none = try Self.hlspack(["fixture", "check", plain.path])
    #expect(none.status == 1 && none.stderr.contains("no hlspack label"), "\(none.stderr)")
    let text = scratch.appendingPathComponent("notes.txt")
    try Data("hello\n".utf8).write(to: text)
    let unreadable = try Self.hlspack(["fixture", "check", text.path])
    #expect(unreadable.status == 2 && unreadable.stderr.contains("notes.txt"), "\(unreadable.stderr)")
  }
}
