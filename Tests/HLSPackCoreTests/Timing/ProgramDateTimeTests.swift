import HLSPackCore
import Testing

struct ProgramDateTimeTests {
  @Test(arguments: [
    ("2026-03-01T12:00:00Z", "2026-03-01T12:00:00.000Z"),
    ("2026-03-01T13:00:00.250+01:00", "2026-03-01T12:00:00.250Z"),
    ("2026-03-01t06:30:00-0530z".replacingOccurrences(of: "z", with: ""), "2026-03-01T12:00:00.000Z"),
    // FFmpeg's creation_time: microseconds, past the millisecond dropped.
    ("2024-05-06T07:08:09.123456Z", "2024-05-06T07:08:09.123Z"),
    ("2024-02-29 23:59:59.9Z", "2024-02-29T23:59:59.900Z"),
    ("1969-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999Z"),
    ("2000-01-01T00:30:00+01:00", "1999-12-31T23:30:00.000Z"),
  ])
  func readsISO8601AndWritesUTCWithMilliseconds(text: String, written: String) throws {
    let time = try #require(ProgramDateTime(iso8601: text))
    #expect(time.iso8601 == written)
    #expect(ProgramDateTime(iso8601: written) == time)
  }

  @Test func theEpochIsZero() {
    #expect(ProgramDateTime(iso8601: "1970-01-01T00:00:00Z")?.millisecondsSince1970 == 0)
    #expect(ProgramDateTime(millisecondsSince1970: 1_772_366_400_000).iso8601 == "2026-03-01T12:00:00.000Z")
  }

  @Test(arguments: [
    "", "source", "2026-03-01", "2026-03-01T12:00:00", "2026-02-29T12:00:00Z", "2026-13-01T12:00:00Z",
    "2026-03-01T24:00:00Z", "2026-03-01T12:00:00.Z", "2026-03-01T12:00:00Z ", "2026-03-01T12:00:00+1:00",
    "26-03-01T12:00:00Z",
  ])
  func refusesWhatIsNotADateTimeWithAZone(text: String) {
    #expect(ProgramDateTime(iso8601: text) == nil)
  }

  /// 90 kHz ticks to the nearest millisecond: 1 ms is 90 ticks.
  @Test func addsMediaTimeRoundedToTheMillisecond() {
    let start = ProgramDateTime(millisecondsSince1970: 1000)
    #expect(start.adding(ticks: 90_000).millisecondsSince1970 == 2000)
    #expect(start.adding(ticks: 44).millisecondsSince1970 == 1000)
    #expect(start.adding(ticks: 45).millisecondsSince1970 == 1001)
    #expect(start.adding(ticks: 3003).millisecondsSince1970 == 1033)
    #expect(start.adding(ticks: -90).millisecondsSince1970 == 999)
  }
}
