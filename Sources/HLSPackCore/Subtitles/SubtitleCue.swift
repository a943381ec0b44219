/// One timed cue of a subtitle file.
public struct SubtitleCue: Sendable, Equatable {
  /// Milliseconds from the start of the source.
  public var start: Int64
  public var end: Int64
  /// WebVTT cue settings after the timings (position, align, …); empty for SRT.
  public var settings: String
  /// WebVTT cue text (SRT text is converted when it is read).
  public var text: String
  /// The WebVTT cue identifier, empty when there is none (SRT's numbers are not kept).
  public var identifier: String

  public init(start: Int64, end: Int64, settings: String = "", text: String, identifier: String = "") {
    self.start = start
    self.end = end
    self.settings = settings
    self.text = text
    self.identifier = identifier
  }
}

public struct SubtitleParseError: Error, CustomStringConvertible, Equatable {
  public var line: Int
  public var reason: String
  public var description: String { "line \(line): \(reason)" }
}

/// Reads WebVTT and SRT files into cues with WebVTT cue text, keeping each
/// WebVTT cue's identifier and settings. STYLE, REGION and NOTE blocks are
/// dropped: FFmpeg 5.1 reads no cue at all from a WebVTT file that has a
/// STYLE or REGION block, and a `region:` setting naming no region is ignored.
public enum SubtitleParser {
  public static func parse(_ text: String, srt: Bool) throws -> [SubtitleCue] {
    let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var index = 0
    if !srt {
      let first = lines.first.map { $0.hasPrefix("\u{FEFF}") ? String($0.dropFirst()) : $0 } ?? ""
      guard first.hasPrefix("WEBVTT") else {
        throw SubtitleParseError(line: 1, reason: "a WebVTT file starts with \"WEBVTT\"")
      }
      index = 1
    }
    var cues: [SubtitleCue] = []
    while index < lines.count {
      // A block: lines up to the next blank line.
      while index < lines.count, lines[index].trimmingSpaces().isEmpty { index += 1 }
      guard index < lines.count else { break }
      let blockStart = index
      var block: [String] = []
      while index < lines.count, !lines[index].trimmingSpaces().isEmpty {
        block.append(lines[index])
        index += 1
      }
      guard let timingLine = block.firstIndex(where: { $0.contains("-->") }) else {
        if srt { throw SubtitleParseError(line: blockStart + 1, reason: "an SRT block without \"-->\" timings") }
        continue  // NOTE, STYLE, REGION
      }
      let parts = block[timingLine].components(separatedBy: "-->")
      let startText = parts[0].trimmingSpaces()
      let rest = parts[1].trimmingSpaces().split(separator: " ", maxSplits: 1).map(String.init)
      guard let start = milliseconds(startText), let endText = rest.first, let end = milliseconds(endText), end >= start
      else {
        throw SubtitleParseError(
          line: blockStart + timingLine + 1, reason: "cannot read the cue timings \"\(block[timingLine])\"")
      }
      let payload = block[(timingLine + 1)...].joined(separator: "\n")
      cues.append(
        SubtitleCue(
          start: start, end: end, settings: srt ? "" : (rest.count > 1 ? rest[1] : ""),
          text: srt ? SRTCueText.webVTT(payload) : payload, identifier: !srt && timingLine == 1 ? block[0] : ""))
    }
    return cues
  }

  /// "hh:mm:ss.mmm", "mm:ss.mmm" or SRT's "hh:mm:ss,mmm". Every field is
  /// digits only (W3C WebVTT timestamps; Int64("-5") and Int64("+5") would
  /// pass) and at most 9 of them, so that no time overflows: 10^9 hours is
  /// 3.6 * 10^15 ms, far inside Int64 also once written on the 90 kHz clock.
  static func milliseconds(_ text: String) -> Int64? {
    let parts = text.replacingOccurrences(of: ",", with: ".").split(separator: ":", omittingEmptySubsequences: false)
    guard (2...3).contains(parts.count), let last = parts.last else { return nil }
    let secondsParts = last.split(separator: ".", omittingEmptySubsequences: false)
    guard secondsParts.count == 2, secondsParts[1].count == 3, let millis = field(secondsParts[1]),
      let seconds = field(secondsParts[0]), seconds < 60
    else { return nil }
    var total = seconds * 1000 + millis
    var multiplier: Int64 = 60_000
    for part in parts.dropLast().reversed() {
      guard let value = field(part) else { return nil }
      total += value * multiplier
      multiplier *= 60
    }
    return total
  }

  /// A timestamp field of 1 to 9 ASCII digits.
  private static func field(_ text: Substring) -> Int64? {
    guard (1...9).contains(text.utf8.count),
      text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    else {
      return nil
    }
    return Int64(text)
  }

  static func format(_ ms: Int64) -> String {
    let h = ms / 3_600_000, m = ms / 60_000 % 60, s = ms / 1000 % 60, f = ms % 1000
    func pad(_ v: Int64, _ n: Int) -> String { String(repeating: "0", count: max(0, n - String(v).count)) + String(v) }
    return "\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2)).\(pad(f, 3))"
  }
}
