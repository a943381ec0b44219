import HLSPackCore

/// One segment of a media playlist and what its bytes say; `facts` is nil
/// when its bytes could not be read or decrypted.
public struct InspectedSegment: Sendable {
  public var segment: VerifiedMediaPlaylist.Segment
  public var facts: SegmentMediaFacts?

  public init(segment: VerifiedMediaPlaylist.Segment, facts: SegmentMediaFacts?) {
    self.segment = segment
    self.facts = facts
  }
}

/// The rules over segments' bitstreams within one media playlist.
public enum BitstreamRules {
  /// Problems found inside each segment, keyframe starts, EXTINF against the
  /// media duration, and timestamp continuity from one segment to the next.
  public static func media(_ segments: [InspectedSegment], file: String) -> [Finding] {
    var findings: [Finding] = []
    var previous: SegmentMediaFacts?
    for inspected in segments {
      let segment = inspected.segment
      func finding(_ rule: VerifyRule, _ detail: String) {
        findings.append(Finding(rule, file: file, line: segment.line, segment: segment.uri, detail: detail))
      }
      defer { previous = inspected.facts }
      guard let facts = inspected.facts else { continue }
      for problem in facts.problems { finding(problem.rule, problem.detail) }
      if facts.startsWithKeyframe == false {
        finding(VerifyRules.segmentNoKeyframeStart, "the first access unit has no IDR slice")
      }
      let frame = facts.frameDuration.map { Double($0) / Double(facts.timescale) }
      if let declared = segment.duration, let measured = facts.durationSeconds, let frame,
        abs(declared - measured) > frame + 0.0005
      {
        finding(
          VerifyRules.segmentExtinfOff,
          "EXTINF \(seconds(declared)) s, media \(seconds(measured)) s (one frame is \(seconds(frame)) s)")
      }
      if !segment.discontinuity, let previous, let end = previous.endPTS, let start = facts.firstPTS,
        let step = facts.frameDuration ?? previous.frameDuration, previous.timescale == facts.timescale,
        abs(facts.distance(from: end, to: start)) > step
      {
        let scale = Double(facts.timescale)
        finding(
          VerifyRules.segmentTimestampGap,
          "starts at \(seconds(Double(start) / scale)) s, the previous segment ends at \(seconds(Double(end) / scale)) s"
        )
      }
    }
    return findings
  }

  /// Three decimals; a value beyond Int's range (a huge EXTINF) in Swift's own notation.
  static func seconds(_ value: Double) -> String {
    let scaled = (value * 1000).rounded()
    guard scaled.isFinite, abs(scaled) < 9.0e18 else { return "\(value)" }
    let thousandths = Int(scaled)
    let sign = thousandths < 0 ? "-" : ""
    let magnitude = abs(thousandths)
    let fraction = String(magnitude % 1000)
    return "\(sign)\(magnitude / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }

  /// EXT-X-DISCONTINUITY before the same segment indexes in every media
  /// playlist of the package (`media`: path → segments, in path order).
  public static func discontinuities(_ media: [(path: String, segments: [InspectedSegment])]) -> [Finding] {
    guard let reference = media.first else { return [] }
    let expected = Set(reference.segments.indices.filter { reference.segments[$0].segment.discontinuity })
    var findings: [Finding] = []
    for (path, segments) in media.dropFirst() {
      let found = Set(segments.indices.filter { segments[$0].segment.discontinuity })
      let count = min(segments.count, reference.segments.count)
      guard let index = found.symmetricDifference(expected).filter({ $0 < count }).min() else { continue }
      let mine = found.contains(index)
      findings.append(
        Finding(
          VerifyRules.discontinuityMismatch, file: path, line: segments[index].segment.line,
          segment: segments[index].segment.uri,
          detail:
            "segment \(index) \(mine ? "has" : "lacks") an EXT-X-DISCONTINUITY that \(reference.path) \(mine ? "lacks" : "has")"
        ))
    }
    return findings
  }
}
