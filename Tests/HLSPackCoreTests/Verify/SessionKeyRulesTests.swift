import HLSPackM3U8
import Testing

@testable import HLSPackCore
@testable import HLSPackVerify

/// EXT-X-SESSION-KEY against the media playlists' EXT-X-KEY tags (RFC 8216bis §4.4.6.5).
@Suite struct SessionKeyRulesTests {
  static let mediaKey = VerifiedMediaPlaylist.Key(
    line: 6, attributes: M3U8Attribute.list(Array(#"METHOD=AES-128,URI="../keys/k.key""#.utf8)[...]))
  static let mediaKeys = [SessionKeyRules.MediaKey(mediaKey, uri: "keys/k.key", file: "v/index.m3u8")]

  func ruleIDs(_ sessionKeys: String...) -> [String] {
    let text = PlaylistText(Array(("#EXTM3U\n" + sessionKeys.map { "#EXT-X-SESSION-KEY:\($0)\n" }.joined()).utf8))
    return SessionKeyRules.check(text, file: "master.m3u8", mediaKeys: Self.mediaKeys).map(\.rule.id)
  }

  @Test func matchingSessionKeyPasses() {
    #expect(ruleIDs(#"METHOD=AES-128,URI="keys/k.key""#) == [])
    // Default KEYFORMAT and KEYFORMATVERSIONS written out are the same key.
    #expect(ruleIDs(#"METHOD=AES-128,URI="keys/k.key",KEYFORMAT="identity",KEYFORMATVERSIONS="1""#) == [])
    // A session key for a URI no media playlist uses is not compared.
    #expect(ruleIDs(#"METHOD=SAMPLE-AES,URI="keys/other.key""#) == [])
  }

  @Test func differentMethodOrFormatForTheSameURI() {
    #expect(ruleIDs(#"METHOD=SAMPLE-AES,URI="keys/k.key""#) == ["multivariant.session-key-mismatch"])
    #expect(
      ruleIDs(#"METHOD=AES-128,URI="keys/k.key",KEYFORMAT="com.example""#) == ["multivariant.session-key-mismatch"])
  }

  @Test func repeatedAndNone() {
    #expect(
      ruleIDs(#"METHOD=AES-128,URI="keys/k.key""#, #"METHOD=AES-128,URI="keys/k.key""#) == [
        "multivariant.session-key-repeated"
      ])
    #expect(ruleIDs("METHOD=NONE") == ["key.method-invalid"])
  }
}
