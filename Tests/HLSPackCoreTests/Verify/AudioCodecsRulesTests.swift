import Testing

@testable import HLSPackCore
@testable import HLSPackVerify

/// CODECS audio entries against what the bytes carry, and a playlist counted
/// once in a variant's bandwidth however many roles it plays.
@Suite struct AudioCodecsRulesTests {
  static let master = """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="audio_1",DEFAULT=YES,URI="i1.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="avc1.64000c,AUDIO_ENTRY",AUDIO="aud"
    i0.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="AUDIO_ENTRY",AUDIO="aud"
    i1.m3u8

    """

  func findings(declared: String, carried: String, tools: AACTools?) -> [String] {
    let playlist = VerifiedMultivariantPlaylist(
      PlaylistText(Array(Self.master.replacingOccurrences(of: "AUDIO_ENTRY", with: declared).utf8)))
    let media = VerifiedMediaPlaylist(PlaylistText(Array("#EXTM3U\n#EXTINF:6,\ns.m4s\n".utf8)))
    return VariantBitstreamRules.check(playlist, file: "master.m3u8") { uri in
      var facts = SegmentMediaFacts()
      if uri == "i0.m3u8" {
        facts.videoCodec = "avc1.64000c"
      } else {
        facts.audioCodecs = [carried]
        facts.aacTools = tools
      }
      return [InspectedSegment(segment: media.segments[0], facts: facts)]
    }.map(\.rule.id)
  }

  @Test func heAACForAACLC() {
    let lc = AACTools(sbr: false, ps: false)
    #expect(
      findings(declared: "mp4a.40.5", carried: "mp4a.40.2", tools: lc)
        == Array(repeating: "variant.codecs-audio-mismatch", count: 2))
    #expect(findings(declared: "mp4a.40.29", carried: "mp4a.40.2", tools: AACTools(sbr: true, ps: false)).count == 2)
    #expect(findings(declared: "mp4a.40.2", carried: "mp4a.40.2", tools: lc).isEmpty)
    // Implicit HE-AAC: the header says AAC-LC, a decoder found SBR.
    #expect(findings(declared: "mp4a.40.5", carried: "mp4a.40.2", tools: AACTools(sbr: true, ps: false)).isEmpty)
    // Tools unknown (no frame decoded): not judged.
    #expect(findings(declared: "mp4a.40.5", carried: "mp4a.40.2", tools: nil).isEmpty)
  }

  /// ac-3 for E-AC-3 is one finding, not also variant.codecs-mismatch for the undeclared ec-3.
  @Test func ac3ForEnhancedAC3() {
    #expect(
      findings(declared: "ac-3", carried: "ec-3", tools: nil)
        == Array(repeating: "variant.codecs-audio-mismatch", count: 2))
    #expect(findings(declared: "ec-3", carried: "ac-3", tools: nil).count == 2)
    #expect(findings(declared: "ec-3", carried: "ec-3", tools: nil).isEmpty)
    #expect(findings(declared: "mp4a.40.34", carried: "mp4a.6B", tools: nil).isEmpty)
  }

  /// FFmpeg's audio-only variant i1.m3u8 is also its AUDIO group's rendition: fetched once.
  @Test func playlistCountedOnceInACombination() throws {
    let rates: [String: HeaviestCombination.Rates] = [
      "i0.m3u8": .init(peak: 250_000, average: 245_000), "i1.m3u8": .init(peak: 135_000, average: 133_000),
    ]
    let audioOnly = try #require(
      HeaviestCombination.rates(variant: "i1.m3u8", groups: [["i1.m3u8"], [], [], []]) { rates[$0] })
    #expect(audioOnly == .init(peak: 135_000, average: 133_000))
    let video = try #require(HeaviestCombination.rates(variant: "i0.m3u8", groups: [["i1.m3u8"]]) { rates[$0] })
    #expect(video == .init(peak: 385_000, average: 378_000))
    // The audio-only variant is one rendition of its group: choosing another member plays
    // that one instead of it, so the combination is the group's heaviest member.
    let other = try #require(
      HeaviestCombination.rates(variant: "i1.m3u8", groups: [["i1.m3u8", "i0.m3u8"]]) { rates[$0] })
    #expect(other == .init(peak: 250_000, average: 245_000))
    #expect(HeaviestCombination.rates(variant: "i1.m3u8", groups: [["x.m3u8"]]) { rates[$0] } == nil)
  }
}
