import Testing

@testable import HLSPackCore
@testable import HLSPackVerify

/// The rules over segments' bitstream facts, and the readers behind them.
@Suite struct BitstreamRulesTests {
  /// Two 2 s segments at 25 fps (90 kHz ticks), the second after the first.
  func segments(_ playlist: String, starts: [Int64] = [0, 180_000]) -> [InspectedSegment] {
    let media = VerifiedMediaPlaylist(PlaylistText(Array(playlist.utf8)))
    return zip(media.segments, starts).map { segment, start in
      var facts = SegmentMediaFacts()
      facts.firstPTS = start
      facts.endPTS = start + 180_000
      facts.frameDuration = 3600
      facts.startsWithKeyframe = true
      return InspectedSegment(segment: segment, facts: facts)
    }
  }

  static let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\na.ts\n#EXTINF:2.0,\nb.ts\n#EXT-X-ENDLIST\n"

  @Test func continuousSegmentsPass() {
    #expect(BitstreamRules.media(segments(Self.playlist), file: "v.m3u8").isEmpty)
  }

  @Test func extinfWithinOneFrame() {
    let close = Self.playlist.replacingOccurrences(of: "#EXTINF:2.0,\na.ts", with: "#EXTINF:2.04,\na.ts")
    #expect(BitstreamRules.media(segments(close), file: "v.m3u8").isEmpty)
    let off = Self.playlist.replacingOccurrences(of: "#EXTINF:2.0,\na.ts", with: "#EXTINF:2.1,\na.ts")
    #expect(BitstreamRules.media(segments(off), file: "v.m3u8").map(\.rule.id) == ["segment.extinf-off"])
  }

  @Test func timestampGapUnlessDiscontinuity() {
    let gap = segments(Self.playlist, starts: [0, 190_000])
    #expect(BitstreamRules.media(gap, file: "v.m3u8").map(\.rule.id) == ["segment.timestamp-gap"])
    let marked = Self.playlist.replacingOccurrences(
      of: "#EXTINF:2.0,\nb.ts", with: "#EXT-X-DISCONTINUITY\n#EXTINF:2.0,\nb.ts")
    #expect(BitstreamRules.media(segments(marked, starts: [0, 190_000]), file: "v.m3u8").isEmpty)
  }

  @Test func keyframeStart() {
    var inspected = segments(Self.playlist)
    inspected[1].facts?.startsWithKeyframe = false
    #expect(BitstreamRules.media(inspected, file: "v.m3u8").map(\.rule.id) == ["segment.no-keyframe-start"])
  }

  @Test func discontinuitiesMustMatch() {
    let marked = Self.playlist.replacingOccurrences(
      of: "#EXTINF:2.0,\nb.ts", with: "#EXT-X-DISCONTINUITY\n#EXTINF:2.0,\nb.ts")
    let same = [("a.m3u8", segments(marked)), ("b.m3u8", segments(marked))]
    #expect(BitstreamRules.discontinuities(same).isEmpty)
    let findings = BitstreamRules.discontinuities([("a.m3u8", segments(Self.playlist)), ("b.m3u8", segments(marked))])
    #expect(findings.map(\.rule.id) == ["playlist.discontinuity-mismatch"])
    #expect(findings.first?.file == "b.m3u8" && findings.first?.segment == "b.ts")
  }

  /// RFC 8216bis §6.2.4: all media playlists or none, and the same date-time at the same media time.
  @Test func programDateTimesMustBeConsistent() {
    func dated(_ first: String, _ second: String? = nil) -> [InspectedSegment] {
      var text = Self.playlist.replacingOccurrences(
        of: "#EXTINF:2.0,\na.ts", with: "#EXT-X-PROGRAM-DATE-TIME:\(first)\n#EXTINF:2.0,\na.ts")
      if let second {
        text = text.replacingOccurrences(
          of: "#EXTINF:2.0,\nb.ts", with: "#EXT-X-DISCONTINUITY\n#EXT-X-PROGRAM-DATE-TIME:\(second)\n#EXTINF:2.0,\nb.ts"
        )
      }
      return segments(text)
    }
    let start = "2026-03-01T12:00:00.000Z"
    let same = [
      ("a.m3u8", dated(start, "2026-03-01T12:00:02.000Z")), ("b.m3u8", dated(start, "2026-03-01T13:00:02+01:00")),
    ]
    #expect(ProgramDateTimeRules.check(same, variants: ["a.m3u8", "b.m3u8"]).isEmpty)
    let shifted = [
      ("a.m3u8", dated(start, "2026-03-01T12:00:02.000Z")), ("b.m3u8", dated(start, "2026-03-01T12:00:02.100Z")),
    ]
    let findings = ProgramDateTimeRules.check(shifted, variants: ["a.m3u8", "b.m3u8"])
    #expect(findings.map(\.rule.id) == ["playlist.program-date-time-inconsistent"])
    #expect(findings.first?.file == "b.m3u8" && findings.first?.segment == "b.ts")
    #expect(ProgramDateTimeRules.check(shifted, variants: ["a.m3u8"]).isEmpty, "renditions are not compared")
    let missing = ProgramDateTimeRules.check(
      [("a.m3u8", dated(start)), ("s.m3u8", segments(Self.playlist))], variants: [])
    #expect(missing.map(\.rule.id) == ["playlist.program-date-time-inconsistent"] && missing.first?.file == "s.m3u8")
    let invalid = ProgramDateTimeRules.check([("a.m3u8", dated("2026-03-01T12:00:00"))], variants: ["a.m3u8"])
    #expect(invalid.map(\.rule.id) == ["playlist.program-date-time-invalid"])
  }

  @Test func codecsEntries() {
    #expect(VariantBitstreamRules.declares("avc1.64001f", "avc1.64001f"))
    #expect(VariantBitstreamRules.declares("avc3.64001f", "avc1.64001f"))
    #expect(!VariantBitstreamRules.declares("avc1.64001e", "avc1.64001f"))
    // ADTS can only say AAC-LC; HE-AAC is signalled implicitly.
    #expect(VariantBitstreamRules.declares("mp4a.40.5", "mp4a.40.2"))
    #expect(!VariantBitstreamRules.declares("mp4a.40.2", "mp4a.40.5"))
  }

  /// An x264 SPS: 20×12 macroblocks cropped by 12 lines, VUI timing at 25 fps.
  @Test func spsPicture() throws {
    let sps = try #require(Hex.decode("6742c00dda05067e7c05a8101032000003000200000300641e28554000"))
    let picture = try #require(SPSPicture(h264SPS: sps[...]))
    #expect(picture.width == 320 && picture.height == 180)
    #expect(picture.frameRate == 25)
  }

  /// A syncframe after its syncword whose bytes are all zero has a zero CRC;
  /// one changed byte breaks it.
  @Test func ac3CRC() {
    var frame: [UInt8] = [0x0B, 0x77] + [UInt8](repeating: 0, count: 62)
    #expect(AC3FrameCheck.crcIsZero(frame[...]))
    frame[40] = 1
    #expect(!AC3FrameCheck.crcIsZero(frame[...]))
  }
}
