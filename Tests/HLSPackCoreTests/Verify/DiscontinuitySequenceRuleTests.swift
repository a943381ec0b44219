import Testing

@testable import HLSPackCore
@testable import HLSPackVerify

/// `playlist.discontinuity-sequence-invalid` on the media playlist of an
/// asset joined from parts: a clear pre-roll, then AES-128 content.
@Suite struct DiscontinuitySequenceRuleTests {
  static let sequence = "#EXT-X-DISCONTINUITY-SEQUENCE:0\n"
  static let clean = """
    #EXTM3U
    #EXT-X-VERSION:3
    #EXT-X-TARGETDURATION:2
    #EXT-X-MEDIA-SEQUENCE:0
    \(sequence)#EXT-X-PLAYLIST-TYPE:VOD
    #EXTINF:2.000000,
    segment_00000.ts
    #EXT-X-DISCONTINUITY
    #EXT-X-KEY:METHOD=AES-128,URI="../keys/k.key",IV=0x000102030405060708090A0B0C0D0E0F
    #EXTINF:1.500000,
    segment_00001.ts
    #EXT-X-ENDLIST

    """

  func ruleIDs(_ text: String) -> [String] {
    let parsed = PlaylistText(Array(text.utf8))
    return (PlaylistRules.common(parsed, file: "v/index.m3u8")
      + PlaylistRules.media(VerifiedMediaPlaylist(parsed), file: "v/index.m3u8")).map(\.rule.id)
  }

  @Test func onceBeforeTheFirstSegmentAndDiscontinuity() {
    #expect(ruleIDs(Self.clean) == [])
    let afterDiscontinuity = Self.clean.replacingOccurrences(of: Self.sequence, with: "")
      .replacingOccurrences(of: "#EXT-X-DISCONTINUITY\n", with: "#EXT-X-DISCONTINUITY\n" + Self.sequence)
    #expect(ruleIDs(afterDiscontinuity) == ["playlist.discontinuity-sequence-invalid"])
    let twice = Self.clean.replacingOccurrences(of: Self.sequence, with: Self.sequence + Self.sequence)
    #expect(ruleIDs(twice) == ["playlist.discontinuity-sequence-invalid"])
    let negative = Self.clean.replacingOccurrences(of: Self.sequence, with: "#EXT-X-DISCONTINUITY-SEQUENCE:-1\n")
    #expect(ruleIDs(negative).contains("playlist.discontinuity-sequence-invalid"))
  }
}
