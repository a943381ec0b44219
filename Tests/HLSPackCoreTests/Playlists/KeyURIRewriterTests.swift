import Testing

@testable import HLSPackCore

/// Byte-exact checks of the key URI rewriter: only the bytes between the
/// quotes of a key tag's URI may change (RFC 8216bis §4.4.4.4).
@Suite struct KeyURIRewriterTests {
  func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }
  func text(_ b: [UInt8]) -> String { String(decoding: b, as: UTF8.self) }

  /// Rewrites every key URI to "NEW" and returns the text.
  func rewriteAll(_ playlist: String, to uri: String = "NEW") -> String {
    text(KeyURIRewriter.rewrite(bytes(playlist)) { _ in uri })
  }

  /// The URI of a one-line playlist's key tag.
  func uri(_ line: String) -> String? { KeyURIRewriter.keyTags(in: bytes(line)).first?.uri }

  /// The line with its key tag's URI replaced; nil when it has no key tag with a quoted URI.
  func replacingURI(_ line: String, with newURI: String) -> String? {
    uri(line) == nil ? nil : rewriteAll(line, to: newURI)
  }

  @Test func crlfFileKeepsEveryLineEnding() {
    let playlist =
      "#EXTM3U\r\n#EXT-X-VERSION:3\r\n#EXT-X-KEY:METHOD=AES-128,URI=\"k.key\",IV=0x0000000000000000000000000000000A\r\n"
      + "#EXTINF:1.000000,\r\nseg0.ts\r\n#EXT-X-ENDLIST\r\n"
    let expected =
      "#EXTM3U\r\n#EXT-X-VERSION:3\r\n#EXT-X-KEY:METHOD=AES-128,URI=\"skd://x\",IV=0x0000000000000000000000000000000A\r\n"
      + "#EXTINF:1.000000,\r\nseg0.ts\r\n#EXT-X-ENDLIST\r\n"
    #expect(rewriteAll(playlist, to: "skd://x") == expected)
    #expect(KeyURIRewriter.keyTags(in: bytes(playlist)).map(\.uri) == ["k.key"])
  }

  @Test func mixedLineEndingsAndNoFinalNewlineSurvive() {
    let playlist =
      "#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"a\"\r\n#EXTINF:1,\nx.ts\r\n#EXT-X-KEY:METHOD=AES-128,URI=\"b\""
    #expect(
      rewriteAll(playlist)
        == "#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"NEW\"\r\n#EXTINF:1,\nx.ts\r\n#EXT-X-KEY:METHOD=AES-128,URI=\"NEW\""
    )
  }

  @Test func uriNotFirstAndAttributesInAnyOrder() {
    let lines = [
      #"#EXT-X-KEY:IV=0x01,URI="u",METHOD=AES-128"#,
      #"#EXT-X-KEY:KEYFORMAT="identity",METHOD=AES-128,IV=0x01,URI="u""#,
      #"#EXT-X-KEY:URI="u",METHOD=AES-128,KEYFORMATVERSIONS="1""#,
    ]
    for line in lines {
      #expect(uri(line) == "u")
      #expect(
        replacingURI(line, with: "myapp-key://a/b")
          == line.replacingOccurrences(of: #""u""#, with: #""myapp-key://a/b""#))
    }
  }

  @Test func quotedCommasAndLookAlikesAreNotAttributes() {
    // A quoted KEYFORMAT holding a comma and a fake URI= must not be split or matched.
    let line = #"#EXT-X-KEY:METHOD=SAMPLE-AES,KEYFORMAT="com.example,URI=fake",URI="skd://a,b",X-URI="keep",IV=0x01"#
    #expect(uri(line) == "skd://a,b")
    #expect(
      replacingURI(line, with: "skd://new")
        == #"#EXT-X-KEY:METHOD=SAMPLE-AES,KEYFORMAT="com.example,URI=fake",URI="skd://new",X-URI="keep",IV=0x01"#)
    let tag = KeyURIRewriter.keyTags(in: bytes(line))[0]
    #expect(tag.attributes.map(\.name) == ["METHOD", "KEYFORMAT", "URI", "X-URI", "IV"])
    #expect(tag.keyFormat == "com.example,URI=fake")
  }

  @Test func sessionKeyIsRewrittenToo() {
    let master = """
      #EXTM3U
      #EXT-X-SESSION-KEY:METHOD=AES-128,URI="keys/k.key"
      #EXT-X-STREAM-INF:BANDWIDTH=1
      a/index.m3u8

      """
    let tags = KeyURIRewriter.keyTags(in: bytes(master))
    #expect(tags.map(\.kind) == [.sessionKey])
    #expect(rewriteAll(master) == master.replacingOccurrences(of: "keys/k.key", with: "NEW"))
  }

  @Test func methodNoneAndOtherURIAttributesAreUntouched() {
    let playlist = """
      #EXTM3U
      #EXT-X-MEDIA:TYPE=AUDIO,URI="audio/index.m3u8",GROUP-ID="a",NAME="en"
      #EXT-X-MAP:URI="init.mp4"
      #EXT-X-KEY:METHOD=NONE
      #EXTINF:1,
      clear.ts
      #EXT-X-KEY:METHOD=AES-128,URI="k.key"
      #EXTINF:1,
      k.ts
      # a comment with URI="k.key"
      #ext-x-key:METHOD=AES-128,URI="lower-case tag names are not tags"

      """
    let tags = KeyURIRewriter.keyTags(in: bytes(playlist))
    #expect(tags.count == 2)
    #expect(tags[0].uri == nil && tags[0].method == "NONE")
    var asked: [Int] = []
    let out = text(
      KeyURIRewriter.rewrite(bytes(playlist)) { tag in
        asked.append(tag.lineNumber)
        return "NEW"
      })
    #expect(asked == [7], "METHOD=NONE (no URI) is never offered for rewriting")
    #expect(
      out == playlist.replacingOccurrences(of: #"METHOD=AES-128,URI="k.key""#, with: #"METHOD=AES-128,URI="NEW""#))
  }

  @Test func returningNilKeepsATagAsItIs() {
    let playlist = "#EXT-X-KEY:METHOD=AES-128,URI=\"a\"\n#EXT-X-KEY:METHOD=AES-128,URI=\"b\"\n"
    let out = text(KeyURIRewriter.rewrite(bytes(playlist)) { $0.uri == "b" ? "B2" : nil })
    #expect(out == "#EXT-X-KEY:METHOD=AES-128,URI=\"a\"\n#EXT-X-KEY:METHOD=AES-128,URI=\"B2\"\n")
  }

  @Test func nonUTF8BytesElsewhereAreKept() {
    // A Latin-1 byte in a comment must survive: the rewriter never decodes other lines.
    var playlist = bytes("#EXTM3U\n# caf")
    playlist.append(0xE9)
    playlist += bytes("\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n")
    var expected = bytes("#EXTM3U\n# caf")
    expected.append(0xE9)
    expected += bytes("\n#EXT-X-KEY:METHOD=AES-128,URI=\"NEW\"\n")
    #expect(KeyURIRewriter.rewrite(playlist) { _ in "NEW" } == expected)
  }

  /// Repeated session keys go, with their line endings; the first stays, and
  /// so does every other line, repeated or not.
  @Test func repeatedSessionKeysAreDropped() {
    let session = #"#EXT-X-SESSION-KEY:METHOD=AES-128,URI="keys/a.key""#
    let other = #"#EXT-X-SESSION-KEY:METHOD=AES-128,URI="keys/b.key""#
    let key = #"#EXT-X-KEY:METHOD=AES-128,URI="k""#
    let playlist = "#EXTM3U\r\n\(session)\r\n\(other)\n\(session)\r\n\(key)\n\(key)\n\(session)"
    #expect(
      text(KeyURIRewriter.removingRepeatedSessionKeys(bytes(playlist)))
        == "#EXTM3U\r\n\(session)\r\n\(other)\n\(key)\n\(key)\n")
    let clean = "#EXTM3U\n\(session)\n\(other)\n"
    #expect(text(KeyURIRewriter.removingRepeatedSessionKeys(bytes(clean))) == clean)
  }

  @Test func malformedTagsAreLeftAlone() {
    for line in [
      #"#EXT-X-KEY:METHOD=AES-128,URI=k.key"#,  // unquoted
      #"#EXT-X-KEY:METHOD=AES-128,URI="k.key"#,  // unterminated
      #"#EXT-X-KEY:METHOD=AES-128"#,  // no URI
      #"#EXT-X-KEYS:METHOD=AES-128,URI="k""#,  // another tag
    ] {
      #expect(replacingURI(line, with: "NEW") == nil, "\(line)")
      #expect(rewriteAll(line) == line)
    }
  }

  @Test func emptyURIIsStillAURI() {
    #expect(replacingURI(#"#EXT-X-KEY:METHOD=AES-128,URI="""#, with: "x") == #"#EXT-X-KEY:METHOD=AES-128,URI="x""#)
  }

  @Test func quotability() {
    #expect(QuotedString.forbiddenCharacter(in: "skd://a b/ü") == nil)
    #expect(QuotedString.forbiddenCharacter(in: "a\"b") == "\"")
    #expect(QuotedString.forbiddenCharacter(in: "a\nb") == "\n")
    #expect(QuotedString.forbiddenCharacter(in: "a\rb") == "\r")
  }

  @Test func scopesFollowKeyFormatAndMethodNone() {
    let playlist = """
      #EXTM3U
      #EXTINF:1,
      clear0.ts
      #EXT-X-KEY:METHOD=AES-128,URI="k1",IV=0x01
      #EXT-X-KEY:METHOD=SAMPLE-AES,KEYFORMAT="com.apple.streamingkeydelivery",URI="skd://1"
      #EXTINF:1,
      a.ts
      #EXT-X-BYTERANGE:100@0
      #EXTINF:1,
      b.ts
      #EXT-X-KEY:METHOD=AES-128,URI="k2"
      #EXTINF:1,
      c.ts
      #EXT-X-KEY:METHOD=NONE
      #EXTINF:1,
      clear1.ts

      """
    let scopes = KeyTagScope.segments(in: bytes(playlist))
    #expect(scopes.count == 4)
    // b.ts is a sub-range: keys.json lists it with its range.
    #expect(scopes[0] == [.init(uri: "a.ts", iv: "0x01"), .init(uri: "b.ts", iv: "0x01", byteRange: "100@0")])
    #expect(scopes[1].map(\.uri) == ["a.ts", "b.ts", "c.ts"], "another KEYFORMAT stays in force")
    #expect(scopes[2] == [.init(uri: "c.ts", iv: nil)])
    #expect(scopes[3].isEmpty)
  }

  @Test func variantURIsInAMasterAreNotSegments() {
    let master = "#EXTM3U\n#EXT-X-SESSION-KEY:METHOD=AES-128,URI=\"k\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv/index.m3u8\n"
    #expect(KeyTagScope.segments(in: bytes(master)) == [[]])
  }
}
