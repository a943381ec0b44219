import Foundation
import HLSPackTestSupport
import Testing

import HLSPack

/// The fixture matrix's `program-date-time`: the clear pre-roll and the
/// AES-128 content with a fixed EXT-X-PROGRAM-DATE-TIME, which is written on
/// the first segment and again after the discontinuity, running on across it.
@Suite struct FixtureProgramDateTimeTests {
  @Test func dateTimesRunOnAcrossThePreRoll() throws {
    let folder = try ScratchFolder.make("pdt-fixture").appendingPathComponent("fixtures")
    let run = try Command.run(
      try Fixtures.executable(),
      ["fixture", "make", "--output", folder.path, "--duration", "2", "--only", "program-date-time"])
    try #require(run.status == 0, "\(run.stderr)")
    let database = try FixtureDatabase.read(from: folder.appendingPathComponent("fixtures.json"))
    let fixture = try #require(database.fixtures.first)
    #expect(fixture.id == "program-date-time" && fixture.frames == 100)
    #expect(fixture.features == ["aes-128", "ts", "clear-pre-roll", "program-date-time"])
    let lines = try PlaylistReader(contentsOf: folder.appendingPathComponent("program-date-time/labelled/360p/index.m3u8"))
      .lines
    let dated = lines.enumerated().filter { $0.element.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") }
    #expect(
      dated.map { String($0.element.dropFirst(25)) } == ["2026-01-01T00:00:00.000Z", "2026-01-01T00:00:02.000Z"])
    let discontinuity = try #require(lines.firstIndex(of: "#EXT-X-DISCONTINUITY"))
    #expect(dated.last.map { $0.offset > discontinuity } == true)
    let verified = try Command.run(
      try Fixtures.executable(), ["verify", folder.appendingPathComponent(fixture.master).path])
    #expect(verified.status == 0, "\(verified.text)\(verified.stderr)")
  }
}
