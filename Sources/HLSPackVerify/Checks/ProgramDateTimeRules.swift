import HLSPackCore

/// EXT-X-PROGRAM-DATE-TIME across the media playlists of a multivariant
/// playlist: if one has it, all must, with consistent mappings of date-time
/// to media time (RFC 8216bis §6.2.4); each is an ISO 8601 date-time with a
/// time zone (RFC 8216bis §4.4.4.6).
public enum ProgramDateTimeRules {
  /// `media`: path → segments of every media playlist (variants first);
  /// `variants`: the paths of the video variants, whose segments start at the
  /// same media times, so their date-times there must agree to the millisecond.
  public static func check(_ media: [(path: String, segments: [InspectedSegment])], variants: [String]) -> [Finding] {
    var findings: [Finding] = []
    var dated: [(path: String, tags: [Tag])] = []
    for (path, segments) in media {
      var tags: [Tag] = []
      var elapsed = 0.0
      for inspected in segments {
        let segment = inspected.segment
        if let (line, value) = segment.programDateTime {
          if let time = ProgramDateTime(iso8601: value) {
            tags.append(Tag(line: line, segment: segment.uri, mediaStart: elapsed, time: time))
          } else {
            findings.append(
              Finding(
                VerifyRules.programDateTimeInvalid, file: path, line: line, segment: segment.uri,
                detail: "\"\(value)\" is not an ISO 8601 date-time with a time zone"))
          }
        }
        elapsed += segment.duration ?? 0
      }
      dated.append((path, tags))
    }
    guard let reference = dated.first(where: { !$0.tags.isEmpty }) else { return findings }
    for (path, tags) in dated where tags.isEmpty {
      findings.append(
        Finding(
          VerifyRules.programDateTimeInconsistent, file: path,
          detail: "has no EXT-X-PROGRAM-DATE-TIME, which \(reference.path) has"))
    }
    let videos = dated.filter { variants.contains($0.path) && !$0.tags.isEmpty }
    guard let first = videos.first else { return findings }
    for (path, tags) in videos.dropFirst() {
      for tag in tags {
        // The reference's date-time for this media time, when it has a tag there (within the EXTINFs' rounding).
        guard let match = first.tags.first(where: { abs($0.mediaStart - tag.mediaStart) < 0.001 }),
          abs(match.time.millisecondsSince1970 - tag.time.millisecondsSince1970) > 1
        else { continue }
        findings.append(
          Finding(
            VerifyRules.programDateTimeInconsistent, file: path, line: tag.line, segment: tag.segment,
            detail:
              "\(tag.time.iso8601) at media time \(BitstreamRules.seconds(tag.mediaStart)) s, where \(first.path) has \(match.time.iso8601)"
          ))
        break
      }
    }
    return findings
  }

  struct Tag {
    var line: Int
    var segment: String
    /// Seconds of EXTINF before the segment.
    var mediaStart: Double
    var time: ProgramDateTime
  }
}
