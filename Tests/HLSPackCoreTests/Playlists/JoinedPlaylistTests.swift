import Testing

@testable import HLSPackCore

/// The playlist lines of an asset joined from parts: EXT-X-DISCONTINUITY-SEQUENCE
/// in the header, METHOD=NONE over a clear part after encrypted segments, and
/// a later part's EXT-X-MAP never under an AES-128 key (RFC 8216bis §4.4.3.3,
/// §4.4.4.4, §4.4.4.5).
@Suite struct JoinedPlaylistTests {
  static let key = KeyTag(method: .aes128, uri: "../keys/k.key", iv: Array(repeating: 1, count: 16))

  @Test func encryptedClearEncryptedWithANewInitPerPart() {
    let playlist = MediaPlaylist(
      entries: [
        .init(uri: "segment_00000.m4s", durationTicks: 90_000, key: Self.key),
        .init(uri: "segment_00001.m4s", durationTicks: 90_000, key: .none, discontinuity: true, map: "init_1.mp4"),
        .init(uri: "segment_00002.m4s", durationTicks: 90_000, key: Self.key, discontinuity: true, map: "init_2.mp4"),
        .init(uri: "segment_00003.m4s", durationTicks: 90_000, key: Self.key, discontinuity: true, map: "init_3.mp4"),
      ],
      targetDuration: 1, map: "init.mp4", discontinuitySequence: 0)
    let iv = "IV=0x01010101010101010101010101010101"
    #expect(
      playlist.render() == """
        #EXTM3U
        #EXT-X-VERSION:6
        #EXT-X-TARGETDURATION:1
        #EXT-X-MEDIA-SEQUENCE:0
        #EXT-X-DISCONTINUITY-SEQUENCE:0
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-MAP:URI="init.mp4"
        #EXT-X-KEY:METHOD=AES-128,URI="../keys/k.key",\(iv)
        #EXTINF:1.000000,
        segment_00000.m4s
        #EXT-X-DISCONTINUITY
        #EXT-X-KEY:METHOD=NONE
        #EXT-X-MAP:URI="init_1.mp4"
        #EXTINF:1.000000,
        segment_00001.m4s
        #EXT-X-DISCONTINUITY
        #EXT-X-MAP:URI="init_2.mp4"
        #EXT-X-KEY:METHOD=AES-128,URI="../keys/k.key",\(iv)
        #EXTINF:1.000000,
        segment_00002.m4s
        #EXT-X-DISCONTINUITY
        #EXT-X-KEY:METHOD=NONE
        #EXT-X-MAP:URI="init_3.mp4"
        #EXT-X-KEY:METHOD=AES-128,URI="../keys/k.key",\(iv)
        #EXTINF:1.000000,
        segment_00003.m4s
        #EXT-X-ENDLIST

        """)
  }
}
