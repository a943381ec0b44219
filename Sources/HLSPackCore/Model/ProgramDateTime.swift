/// A wall-clock instant in whole milliseconds, as EXT-X-PROGRAM-DATE-TIME
/// carries it: an ISO 8601 date-time with a time zone, which should have
/// millisecond precision (RFC 8216bis §4.4.4.6). Integer arithmetic only, so
/// the same media time gives the same text in every playlist.
public struct ProgramDateTime: Sendable, Equatable, Comparable {
  public var millisecondsSince1970: Int64

  public init(millisecondsSince1970: Int64) {
    self.millisecondsSince1970 = millisecondsSince1970
  }

  /// `YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh:mm|±hhmm)`, as RFC 3339 and FFmpeg's
  /// `creation_time` write it; a lower-case `t`/`z` or a space for the `T`
  /// is accepted too. Digits past the millisecond are dropped. Nil for
  /// anything else, including a date without a time zone (its instant is unknown).
  public init?(iso8601 text: String) {
    let b = Array(text.utf8)
    func digits(_ at: Int, _ count: Int) -> Int64? {
      guard at + count <= b.count else { return nil }
      var value: Int64 = 0
      for c in b[at..<at + count] {
        guard c >= 0x30, c <= 0x39 else { return nil }
        value = value * 10 + Int64(c - 0x30)
      }
      return value
    }
    func byte(_ at: Int, in set: String) -> Bool { at < b.count && set.utf8.contains(b[at]) }
    guard let year = digits(0, 4), byte(4, in: "-"), let month = digits(5, 2), byte(7, in: "-"),
      let day = digits(8, 2), byte(10, in: "Tt "), let hour = digits(11, 2), byte(13, in: ":"),
      let minute = digits(14, 2), byte(16, in: ":"), let second = digits(17, 2)
    else { return nil }
    var at = 19
    var millis: Int64 = 0
    if byte(at, in: ".") {
      at += 1
      let start = at
      while at < b.count, b[at] >= 0x30, b[at] <= 0x39 { at += 1 }
      guard at > start else { return nil }
      let fraction = Array(b[start..<min(at, start + 3)]) + Array(repeating: UInt8(0x30), count: 3)
      millis = fraction.prefix(3).reduce(0) { $0 * 10 + Int64($1 - 0x30) }
    }
    var offsetMinutes: Int64 = 0
    if byte(at, in: "Zz"), at + 1 == b.count {
      offsetMinutes = 0
    } else if byte(at, in: "+-"), let h = digits(at + 1, 2) {
      let colon = byte(at + 3, in: ":") ? 1 : 0
      guard let m = digits(at + 3 + colon, 2), at + 5 + colon == b.count, h < 24, m < 60 else { return nil }
      offsetMinutes = (h * 60 + m) * (b[at] == UInt8(ascii: "-") ? -1 : 1)
    } else {
      return nil
    }
    let monthDays: [Int64] = [31, Self.isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    guard (1...12).contains(month), day >= 1, day <= monthDays[Int(month) - 1], hour < 24, minute < 60, second < 60
    else { return nil }
    let days = Self.daysSince1970(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60
    millisecondsSince1970 = seconds * 1000 + millis
  }

  /// UTC with milliseconds: `2026-03-01T11:00:00.000Z`.
  public var iso8601: String {
    let millis = Self.floorMod(millisecondsSince1970, 1000)
    let seconds = (millisecondsSince1970 - millis) / 1000
    let secondOfDay = Self.floorMod(seconds, 86_400)
    let (year, month, day) = Self.civil(daysSince1970: (seconds - secondOfDay) / 86_400)
    func pad(_ v: Int64, _ width: Int) -> String {
      let s = String(v)
      return String(repeating: "0", count: max(0, width - s.count)) + s
    }
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
      + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(millis, 3))Z"
  }

  public static func < (a: ProgramDateTime, b: ProgramDateTime) -> Bool {
    a.millisecondsSince1970 < b.millisecondsSince1970
  }

  private static func isLeap(_ y: Int64) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

  static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { (a - floorMod(a, b)) / b }
  private static func floorMod(_ a: Int64, _ b: Int64) -> Int64 { ((a % b) + b) % b }

  /// Proleptic Gregorian days from 1970-01-01 (H. Hinnant's days_from_civil).
  private static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = floorDiv(y, 400)
    let yoe = y - era * 400
    let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The inverse of `daysSince1970` (H. Hinnant's civil_from_days).
  private static func civil(daysSince1970 days: Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = floorDiv(z, 146_097)
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
