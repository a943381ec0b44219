import Testing

@testable import HLSPackVerify

/// Sub-ranges of one resource: none overlaps another or the EXT-X-MAP, and
/// an AES-128 one starts on a 16-byte block.
@Suite struct ByteRangeRulesTests {
  static func findings(_ body: String) -> [String] {
    let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n" + body + "#EXT-X-ENDLIST\n"
    return ByteRangeRules.media(VerifiedMediaPlaylist(PlaylistText(Array(text.utf8))), file: "a/index.m3u8")
      .map(\.rule.id)
  }

  @Test func rangesThatFollowOneAnotherPass() {
    let body = """
      #EXT-X-MAP:URI="media.mp4",BYTERANGE="1184@0"
      #EXT-X-KEY:METHOD=AES-128,URI="k.key",IV=0x01
      #EXTINF:2,
      #EXT-X-BYTERANGE:4016@1184
      media.mp4
      #EXTINF:2,
      #EXT-X-BYTERANGE:2000
      media.mp4

      """
    #expect(Self.findings(body) == [])
  }

  @Test func overlappingRangesAndMapAreFound() {
    let body = """
      #EXT-X-MAP:URI="media.mp4",BYTERANGE="1184"
      #EXTINF:2,
      #EXT-X-BYTERANGE:4000@1000
      media.mp4
      #EXTINF:2,
      #EXT-X-BYTERANGE:100@4900
      media.mp4
      #EXTINF:2,
      #EXT-X-BYTERANGE:100@0
      other.mp4

      """
    #expect(Self.findings(body) == ["segment.byterange-overlap", "segment.byterange-overlap"])
  }

  @Test func iFrameRangesAreLeftToThePictureChecks() {
    let body = """
      #EXT-X-I-FRAMES-ONLY
      #EXTINF:2,
      #EXT-X-BYTERANGE:4000@0
      media.ts
      #EXTINF:2,
      #EXT-X-BYTERANGE:4000@3000
      media.ts

      """
    #expect(Self.findings(body) == [])
  }

  @Test func anAES128RangeOffABlockIsFound() {
    let body = """
      #EXT-X-KEY:METHOD=AES-128,URI="k.key",IV=0x01
      #EXTINF:2,
      #EXT-X-BYTERANGE:4000@0
      media.ts
      #EXTINF:2,
      #EXT-X-BYTERANGE:4000@4008
      media.ts
      #EXT-X-KEY:METHOD=NONE
      #EXTINF:2,
      #EXT-X-BYTERANGE:188@8008
      media.ts

      """
    #expect(Self.findings(body) == ["segment.aes128-range-alignment"])
  }
}
