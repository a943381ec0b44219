import Foundation
import HLSPackTestSupport
import Testing

/// `--progress json`: one event per line, and what it counts.
extension CommandLineTests {
  @Test func jsonProgressIsOneObjectPerLine() throws {
    let run = try encode(try Fixtures.clip().path, extra: ["--progress", "json"])
    #expect(run.result.status == 0)
    let events = try run.result.text.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    #expect(events.first?["event"] as? String == "start")
    #expect(events.last?["event"] as? String == "done")
    #expect(events.last?["asset"] as? String == "clip")
    // Every progress event has what the README promises (the clip declares its duration).
    for event in events where event["event"] as? String == "progress" {
      #expect(event["speed"] is Double && event["percent"] is Double && event["eta_seconds"] is Double, "\(event)")
    }
  }

  /// A live-style Matroska declares no duration: no percent or ETA, and the
  /// done event still says how much source was processed.
  @Test func progressWithoutADeclaredDurationCountsWhatWasDone() throws {
    let scratch = try ScratchFolder.make()
    let run = try encode(try remuxedClip("live.mkv", ["-live", "1"], in: scratch).path, extra: ["--progress", "json"])
    #expect(run.result.status == 0, "\(run.result.stderr)")
    let events = try run.result.text.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    let done = try #require(events.last)
    #expect(done["event"] as? String == "done" && done["duration"] == nil && done["percent"] == nil)
    let seconds = try #require(done["seconds"] as? Double)
    #expect(abs(seconds - 4) < 0.1, "done after \(seconds) s of a 4 s clip")
  }

  /// A source whose timestamps start at 60 s is 4 s of work, not 64.
  @Test func progressCountsTheVideoNotWhereItsTimestampsStart() throws {
    let scratch = try ScratchFolder.make()
    let run = try encode(
      try remuxedClip("late.mp4", ["-output_ts_offset", "60"], in: scratch).path, extra: ["--progress", "json"])
    #expect(run.result.status == 0, "\(run.result.stderr)")
    let start = try #require(
      try JSONSerialization.jsonObject(with: Data((run.result.text.split(separator: "\n").first ?? "").utf8))
        as? [String: Any])
    let duration = try #require(start["duration"] as? Double)
    #expect(abs(duration - 4) < 0.1, "duration \(duration)")
  }
}
