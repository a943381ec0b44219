import Testing

@testable import HLSPackCore
@testable import HLSPackVerify

/// EXT-X-MEDIA attributes and rendition groups (RFC 8216bis §4.4.6.1, §4.4.6.1.1).
@Suite struct RenditionRulesTests {
  static let english =
    #"TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="a/en.m3u8""#

  func ruleIDs(_ renditions: String...) -> [String] {
    let text =
      "#EXTM3U\n" + renditions.map { "#EXT-X-MEDIA:\($0)\n" }.joined()
      + "#EXT-X-STREAM-INF:BANDWIDTH=1000,AUDIO=\"aac\"\nv.m3u8\n"
    let playlist = VerifiedMultivariantPlaylist(PlaylistText(Array(text.utf8)))
    return RenditionRules.check(playlist, file: "master.m3u8").map(\.rule.id)
  }

  @Test func cleanGroupPasses() {
    #expect(
      ruleIDs(Self.english, #"TYPE=AUDIO,GROUP-ID="aac",NAME="French",LANGUAGE="fr",AUTOSELECT=YES,URI="a/fr.m3u8""#)
        == [])
    #expect(ruleIDs(#"TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",INSTREAM-ID="CC1""#) == [])
    #expect(ruleIDs(#"TYPE=SUBTITLES,GROUP-ID="subs",NAME="en",FORCED=NO,URI="s.m3u8""#) == [])
  }

  @Test func requiredAttributes() {
    #expect(ruleIDs(#"GROUP-ID="aac",NAME="English""#) == ["rendition.attribute-invalid"])
    #expect(ruleIDs(#"TYPE=AUDIO,NAME="English""#) == ["rendition.attribute-invalid"])
    #expect(ruleIDs(#"TYPE=AUDIO,GROUP-ID="aac""#) == ["rendition.attribute-invalid"])
    #expect(ruleIDs(#"TYPE=TEXT,GROUP-ID="aac",NAME="English""#) == ["rendition.attribute-invalid"])
  }

  @Test func defaultMustBeAutoselect() {
    #expect(
      ruleIDs(Self.english.replacingOccurrences(of: "AUTOSELECT=YES", with: "AUTOSELECT=NO")) == [
        "rendition.default-not-autoselect"
      ])
    // An absent AUTOSELECT is not a contradiction.
    #expect(ruleIDs(Self.english.replacingOccurrences(of: ",AUTOSELECT=YES", with: "")) == [])
  }

  @Test func forcedOnlyForSubtitlesAndClosedCaptionsInStream() {
    #expect(ruleIDs(Self.english + ",FORCED=NO") == ["rendition.forced-not-subtitles"])
    #expect(ruleIDs(#"TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1""#) == ["rendition.closed-captions-invalid"])
    #expect(
      ruleIDs(#"TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",INSTREAM-ID="CC1",URI="cc.m3u8""#) == [
        "rendition.closed-captions-invalid"
      ])
  }

  @Test func oneDefaultAndDistinctNamesPerGroup() {
    let second = Self.english.replacingOccurrences(of: "English", with: "Second")
    #expect(ruleIDs(Self.english, second) == ["rendition.default-repeated"])
    let sameName = Self.english.replacingOccurrences(of: "DEFAULT=YES", with: "DEFAULT=NO")
    #expect(ruleIDs(Self.english, sameName) == ["rendition.name-repeated"])
    // The same NAME in another group is fine.
    #expect(
      ruleIDs(Self.english, Self.english.replacingOccurrences(of: #"GROUP-ID="aac""#, with: #"GROUP-ID="ac3""#)) == [])
  }
}
