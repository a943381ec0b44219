import Testing

@testable import HLSPackCore
@testable import HLSPackVerify

/// The playlist rules of `hlspack verify`, each on a playlist written here
/// that breaks only that rule.
@Suite struct PlaylistRulesTests {
  static let clean = """
    #EXTM3U
    #EXT-X-VERSION:6
    #EXT-X-TARGETDURATION:2
    #EXT-X-MEDIA-SEQUENCE:0
    #EXT-X-PLAYLIST-TYPE:VOD
    #EXT-X-MAP:URI="init.mp4"
    #EXT-X-KEY:METHOD=AES-128,URI="../keys/k.key",IV=0x000102030405060708090A0B0C0D0E0F
    #EXTINF:2.000000,
    segment_00000.m4s
    #EXTINF:1.500000,
    segment_00001.m4s
    #EXT-X-ENDLIST

    """

  func ruleIDs(_ text: String) -> [String] {
    let parsed = PlaylistText(Array(text.utf8))
    let findings =
      PlaylistRules.common(parsed, file: "v/index.m3u8")
      + PlaylistRules.media(VerifiedMediaPlaylist(parsed), file: "v/index.m3u8")
    return findings.map(\.rule.id)
  }

  @Test func cleanPlaylistHasNoFinding() {
    #expect(ruleIDs(Self.clean) == [])
  }

  @Test func parsesSegmentsWithTheirKeyAndSequenceNumber() throws {
    let playlist = VerifiedMediaPlaylist(PlaylistText(Array(Self.clean.utf8)))
    #expect(playlist.segments.map(\.uri) == ["segment_00000.m4s", "segment_00001.m4s"])
    #expect(playlist.segments.map(\.duration) == [2.0, 1.5])
    #expect(playlist.segments.map(\.sequenceNumber) == [0, 1])
    #expect(playlist.segments.first?.effectiveIV == Array(0...15))
    #expect(playlist.targetDuration == 2)
  }

  @Test func sequenceNumberIsTheIVWhenNoneIsWritten() {
    let playlist = VerifiedMediaPlaylist(
      PlaylistText(
        Array("#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:258\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n#EXTINF:1,\na.ts\n".utf8)))
    #expect(playlist.segments.first?.effectiveIV == [UInt8](repeating: 0, count: 14) + [0x01, 0x02])
  }

  @Test func firstLineMustBeEXTM3U() {
    #expect(ruleIDs(String(Self.clean.dropFirst("#EXTM3U\n".count))) == ["playlist.extm3u-missing"])
    #expect(ruleIDs("\u{FEFF}" + Self.clean) == ["playlist.extm3u-missing"])
  }

  @Test func targetDuration() {
    #expect(
      ruleIDs(Self.clean.replacingOccurrences(of: "#EXT-X-TARGETDURATION:2\n", with: "")) == [
        "playlist.targetduration-missing"
      ])
    #expect(
      ruleIDs(Self.clean.replacingOccurrences(of: "TARGETDURATION:2", with: "TARGETDURATION:1.5")) == [
        "playlist.targetduration-missing"
      ])
    // 2.5 rounds to 3; 2.49 rounds to 2.
    #expect(
      ruleIDs(Self.clean.replacingOccurrences(of: "#EXTINF:1.500000", with: "#EXTINF:2.5")) == [
        "playlist.targetduration-exceeded"
      ])
    #expect(ruleIDs(Self.clean.replacingOccurrences(of: "#EXTINF:1.500000", with: "#EXTINF:2.49")) == [])
  }

  @Test func everySegmentNeedsADuration() {
    #expect(
      ruleIDs(Self.clean.replacingOccurrences(of: "#EXTINF:1.500000,", with: "#EXTINF:abc,")) == [
        "playlist.extinf-missing"
      ])
    #expect(
      ruleIDs(Self.clean.replacingOccurrences(of: "#EXTINF:1.500000,\n", with: "")) == ["playlist.extinf-missing"])
  }

  @Test func versionCoversEveryFeature() {
    // EXT-X-MAP outside an I-frame playlist needs 6.
    #expect(
      ruleIDs(Self.clean.replacingOccurrences(of: "VERSION:6", with: "VERSION:5")) == ["playlist.version-too-low"])
    #expect(
      ruleIDs(Self.clean.replacingOccurrences(of: "#EXT-X-VERSION:6\n", with: "")) == ["playlist.version-too-low"])
    #expect(
      ruleIDs(Self.clean.replacingOccurrences(of: "#EXT-X-VERSION:6\n", with: "#EXT-X-VERSION:6\n#EXT-X-VERSION:6\n"))
        == ["playlist.version-repeated"])
    let iFrames = """
      #EXTM3U
      #EXT-X-VERSION:4
      #EXT-X-TARGETDURATION:2
      #EXT-X-I-FRAMES-ONLY
      #EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x01
      #EXTINF:2.000000,
      #EXT-X-BYTERANGE:20492@0
      segment_00000.ts
      #EXT-X-ENDLIST

      """
    #expect(ruleIDs(iFrames) == [])
    let requirements = VersionRules.requirements(PlaylistText(Array(iFrames.utf8)))
    #expect(requirements.map(\.version) == [4, 2, 3, 4])
    #expect(ruleIDs(iFrames.replacingOccurrences(of: "VERSION:4", with: "VERSION:3")) == ["playlist.version-too-low"])
    // Integer durations need no version 3.
    #expect(ruleIDs("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n") == [])
  }

  @Test func vodNeedsEndList() {
    #expect(ruleIDs(Self.clean.replacingOccurrences(of: "#EXT-X-ENDLIST\n", with: "")) == ["playlist.endlist-missing"])
    let event = Self.clean.replacingOccurrences(of: "TYPE:VOD", with: "TYPE:EVENT")
    #expect(ruleIDs(event.replacingOccurrences(of: "#EXT-X-ENDLIST\n", with: "")) == [])
  }

  /// Only AES-128 defines an encrypted initialization section (RFC 8216bis
  /// §4.4.4.5): another method's key tag before the EXT-X-MAP is flagged from
  /// the text alone; under an AES-128 one the section's bytes decide whether
  /// it is the clear section the key wrongly applies to (`VerifyTests.mapAfterKey`)
  /// or an encrypted one (`EncryptedInitTests`).
  @Test func mapMustPrecedeTheFirstKey() {
    let map = "#EXT-X-MAP:URI=\"init.mp4\"\n"
    let moved = Self.clean.replacingOccurrences(of: map, with: "")
      .replacingOccurrences(of: "#EXTINF:2.000000,", with: map + "#EXTINF:2.000000,")
    #expect(ruleIDs(moved.replacingOccurrences(of: "AES-128", with: "SAMPLE-AES")) == ["playlist.map-after-key"])
    #expect(ruleIDs(moved) == [])
  }

  @Test func mediaSequenceOnceBeforeTheFirstSegment() {
    let sequence = "#EXT-X-MEDIA-SEQUENCE:0\n"
    #expect(ruleIDs(Self.clean) == [])
    #expect(Self.clean.contains(sequence))
    let late = Self.clean.replacingOccurrences(of: sequence, with: "")
      .replacingOccurrences(of: "#EXT-X-ENDLIST\n", with: sequence + "#EXT-X-ENDLIST\n")
    #expect(ruleIDs(late) == ["playlist.media-sequence-invalid"])
    let twice = Self.clean.replacingOccurrences(of: sequence, with: sequence + sequence)
    #expect(ruleIDs(twice) == ["playlist.media-sequence-invalid"])
    for value in ["-1", "1.0", "0x10", "", "18446744073709551616"] {
      let bad = Self.clean.replacingOccurrences(of: sequence, with: "#EXT-X-MEDIA-SEQUENCE:\(value)\n")
      #expect(ruleIDs(bad) == ["playlist.media-sequence-invalid"], "\(value)")
    }
  }

  @Test func keySyntax() {
    func with(_ attributes: String) -> [String] {
      ruleIDs(
        Self.clean.replacingOccurrences(
          of: #"METHOD=AES-128,URI="../keys/k.key",IV=0x000102030405060708090A0B0C0D0E0F"#, with: attributes))
    }
    #expect(with(#"METHOD=AES-129,URI="k""#) == ["key.method-invalid"])
    #expect(with(#"URI="k""#) == ["key.method-invalid"])
    #expect(with(#"METHOD=AES-128"#) == ["key.uri-missing"])
    #expect(with(#"METHOD=AES-128,URI="k",IV=0xZZ"#) == ["key.iv-malformed"])
    #expect(with(#"METHOD=AES-128,URI="k",IV=0x000102030405060708090A0B0C0D0E0F00"#) == ["key.iv-malformed"])
    #expect(with(#"METHOD=AES-128,URI="k",IV="0x01""#) == ["key.iv-malformed"])
    #expect(with(#"METHOD=AES-128,URI="k",IV=0x1"#) == [])
    #expect(with(#"METHOD=AES-128,URI="k",KEYFORMAT=identity"#) == ["key.keyformat-malformed"])
    #expect(
      with(#"METHOD=AES-128,URI="k",KEYFORMAT="identity",KEYFORMATVERSIONS="1/x""#) == ["key.keyformat-malformed"])
    #expect(with(#"METHOD=AES-128,URI="k",KEYFORMAT="identity",KEYFORMATVERSIONS="1/2""#) == [])
    #expect(with(#"METHOD=NONE,URI="k""#) == ["key.none-with-attributes"])
  }

  @Test func variantGroupsMustResolve() {
    let master = """
      #EXTM3U
      #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="en",URI="audio/en/index.m3u8"
      #EXT-X-STREAM-INF:BANDWIDTH=1000,AUDIO="aac",CLOSED-CAPTIONS=NONE
      high/index.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=500,AUDIO="ac3",SUBTITLES="subs"
      low/index.m3u8

      """
    let parsed = PlaylistText(Array(master.utf8))
    #expect(parsed.isMultivariant)
    let findings = PlaylistRules.groups(VerifiedMultivariantPlaylist(parsed), file: "master.m3u8")
    #expect(findings.map(\.rule.id) == ["multivariant.group-unresolved", "multivariant.group-unresolved"])
    #expect(findings.map(\.line) == [5, 5])
  }
}
