import Foundation
import HLSPackM3U8
import Testing

@testable import HLSPackCore
@testable import HLSPackVerify

/// Hostile numbers in playlists: each is a finding of the rule that reads it,
/// and no rule's arithmetic traps on it (RFC 8216bis §4.2 ranges).
@Suite struct PlaylistNumberTests {
  static let fiveThousandDigits = String(repeating: "9", count: 5000)
  /// 10^308 written out: a valid, finite decimal-floating-point.
  static let hugeButFinite = "1" + String(repeating: "0", count: 308) + ".5"

  func media(_ tags: String, segments: String = "#EXTINF:2.0,\na.ts\n#EXTINF:2.0,\nb.ts\n") -> String {
    "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:2\n\(tags)\(segments)#EXT-X-ENDLIST\n"
  }

  /// Every rule over the text of one media playlist, and the rules that compute with its numbers.
  func findings(_ text: String) -> [Finding] {
    let parsed = PlaylistText(Array(text.utf8))
    let playlist = VerifiedMediaPlaylist(parsed)
    let samples = playlist.segments.compactMap { segment in
      segment.duration.map { BandwidthMeter.Sample(bytes: segment.byteRange?.length ?? 1000, seconds: $0) }
    }
    let variant = VerifiedMultivariantPlaylist.Variant(
      uri: "v.m3u8", line: 1, iFrame: false,
      attributes: M3U8Attribute.list(Array("BANDWIDTH=18446744073709551615,AVERAGE-BANDWIDTH=1".utf8)[...]))
    var facts = SegmentMediaFacts()
    (facts.firstPTS, facts.endPTS, facts.frameDuration) = (0, 180_000, 3600)
    return PlaylistRules.common(parsed, file: "v.m3u8") + PlaylistRules.media(playlist, file: "v.m3u8")
      + BandwidthRules.check(
        variant,
        measuredPeak: Double(BandwidthMeter.peak(samples, targetDuration: Int64(playlist.targetDuration ?? 1))),
        measuredAverage: Double(BandwidthMeter.average(samples)), file: "m.m3u8")
      + BitstreamRules.media(playlist.segments.map { InspectedSegment(segment: $0, facts: facts) }, file: "v.m3u8")
      + playlist.segments.compactMap { segment in
        segment.rangeProblem(size: 1000).map {
          Finding(VerifyRules.segmentByteRangeInvalid, file: "v.m3u8", detail: $0)
        }
      }
  }

  @Test(arguments: ["nan", "inf", "-inf", "1e308", "1e19", "-1", "0x10", " 2", "2.0.0", "", fiveThousandDigits])
  func extinfThatIsNoDuration(value: String) throws {
    let found = findings(media("", segments: "#EXTINF:\(value),\na.ts\n"))
    let finding = try #require(found.first { $0.rule == VerifyRules.extinfMissing })
    #expect(finding.detail.hasSuffix("is not a finite decimal-floating-point duration"))
    #expect(finding.detail.count < 120, "a 5000-digit value is shortened")
  }

  @Test func hugeFiniteDurationIsComparedNotConverted() {
    let found = findings(media("", segments: "#EXTINF:\(Self.hugeButFinite),\na.ts\n"))
    #expect(found.contains { $0.rule == VerifyRules.targetDurationExceeded && $0.detail.contains("1e+308") })
    #expect(found.contains { $0.rule == VerifyRules.segmentExtinfOff })
    #expect(BitstreamRules.seconds(.infinity) == "inf" && BitstreamRules.seconds(1.5) == "1.500")
  }

  @Test(arguments: [
    ("9223372036854775807@9223372036854775807", "ends beyond any file"),
    ("100@9223372036854775800", "ends beyond any file"),
    ("18446744073709551615@0", "has a length beyond any file"),
    ("10@18446744073709551615", "has an offset beyond any file"),
    ("18446744073709551616@0", "is not n[@o]"), ("-5@0", "is not n[@o]"), ("10@-10", "is not n[@o]"),
    ("1e3@0", "is not n[@o]"), ("@", "is not n[@o]"), ("0@0", "is an empty range"),
    ("100", "has no offset, and the previous segment is not a sub-range of a.ts"),
    ("999@2", "runs past the end of the 1000-byte resource"),
  ])
  func byteRangeThatNamesNoBytes(written: String, why: String) throws {
    let found = findings(media("", segments: "#EXTINF:2.0,\n#EXT-X-BYTERANGE:\(written)\na.ts\n"))
    let finding = try #require(found.first { $0.rule == VerifyRules.segmentByteRangeInvalid })
    #expect(finding.detail.contains(why), "\(finding.detail)")
  }

  @Test func byteRangeWithoutOffsetContinuesTheSameResource() {
    let playlist = VerifiedMediaPlaylist(
      PlaylistText(
        Array(
          media("", segments: "#EXTINF:1,\n#EXT-X-BYTERANGE:10@5\na.ts\n#EXTINF:1,\n#EXT-X-BYTERANGE:20\na.ts\n").utf8))
    )
    #expect(playlist.segments.map { $0.byteRange?.offset } == [5, 15])
    #expect(playlist.segments.allSatisfy { $0.byteRangeProblem == nil && $0.rangeProblem(size: 35) == nil })
    #expect(playlist.segments[1].rangeProblem(size: 34) != nil)
  }

  /// Sequence numbers wrap past 2^64 − 1 as their IVs do; a target
  /// duration beyond Int is read as Int.max.
  @Test func largestDecimalIntegers() {
    let text = media("#EXT-X-MEDIA-SEQUENCE:18446744073709551615\n#EXT-X-DISCONTINUITY-SEQUENCE:18446744073709551615\n")
      .replacingOccurrences(of: "TARGETDURATION:2", with: "TARGETDURATION:18446744073709551615")
    let playlist = VerifiedMediaPlaylist(PlaylistText(Array(text.utf8)))
    #expect(playlist.segments.map(\.sequenceNumber) == [UInt64.max, 0])
    #expect(playlist.targetDuration == Int.max)
    #expect(findings(text).map(\.rule.id).filter { $0.hasPrefix("playlist.") } == [])
  }

  @Test(arguments: [
    "#EXT-X-MEDIA-SEQUENCE:18446744073709551616\n", "#EXT-X-MEDIA-SEQUENCE:-1\n", "#EXT-X-MEDIA-SEQUENCE:+1\n",
  ])
  func mediaSequenceOutOfRange(tag: String) {
    #expect(findings(media(tag)).map(\.rule.id).contains("playlist.media-sequence-invalid"))
  }

  @Test func targetDurationOutOfRange() {
    let text = media("").replacingOccurrences(of: "TARGETDURATION:2", with: "TARGETDURATION:\(Self.fiveThousandDigits)")
    #expect(findings(text).map(\.rule.id).contains("playlist.targetduration-missing"))
  }

  @Test(arguments: [
    "#EXT-X-DISCONTINUITY-SEQUENCE:-3\n", "#EXT-X-VERSION:99999999999999999999999\n",
    "#EXT-X-START:TIME-OFFSET=nan\n", "#EXT-X-START:TIME-OFFSET=--1\n", "#EXT-X-PART-INF:PART-TARGET=inf\n",
    "#EXT-X-SERVER-CONTROL:HOLD-BACK=1e400\n", "#EXT-X-MAP:URI=\"i.mp4\",BYTERANGE=\"-1@0\"\n",
    "#EXT-X-MAP:URI=\"i.mp4\",BYTERANGE=100@0\n", "#EXT-X-BITRATE:\(fiveThousandDigits)\n",
    "#EXT-X-SKIP:SKIPPED-SEGMENTS=1.5\n", "#EXT-X-DATERANGE:ID=\"a\",DURATION=-1\n",
  ])
  func mediaTagNumberOutOfItsType(tag: String) {
    #expect(findings(media(tag)).map(\.rule.id).contains("playlist.number-invalid"), "\(tag)")
  }

  @Test(arguments: [
    "#EXT-X-START:TIME-OFFSET=-2.5\n", "#EXT-X-MAP:URI=\"i.mp4\",BYTERANGE=\"100@0\"\n",
    "#EXT-X-DISCONTINUITY-SEQUENCE:18446744073709551615\n",
  ])
  func mediaTagNumberInItsType(tag: String) {
    #expect(!findings(media(tag)).map(\.rule.id).contains("playlist.number-invalid"), "\(tag)")
  }

  @Test func variantNumbers() {
    let text = """
      #EXTM3U
      #EXT-X-STREAM-INF:BANDWIDTH=18446744073709551616,AVERAGE-BANDWIDTH=-1,RESOLUTION=1e9x-1,FRAME-RATE=nan,SCORE=inf
      a.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=18446744073709551615,AVERAGE-BANDWIDTH=0,RESOLUTION=640x360,FRAME-RATE=29.970
      b.m3u8
      #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH="1",RESOLUTION=640x360,URI="i.m3u8"

      """
    let parsed = PlaylistText(Array(text.utf8))
    let found = PlaylistRules.common(parsed, file: "m.m3u8").filter { $0.rule == VerifyRules.numberInvalid }
    #expect(found.map(\.line) == [2, 2, 2, 2, 2, 6], "\(found.map(\.detail))")
    let playlist = VerifiedMultivariantPlaylist(parsed)
    #expect(playlist.variants.map(\.bandwidth) == [nil, UInt64.max, nil])
    // The largest BANDWIDTH against an infinite measured peak, and a zero one: findings, no trap.
    let checked = BandwidthRules.check(playlist.variants[1], measuredPeak: .infinity, measuredAverage: 1e300, file: "m")
    #expect(checked.contains { $0.rule == VerifyRules.bandwidthBelowPeak && $0.detail.contains("inf") })
  }
}
