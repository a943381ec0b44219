import Foundation
import Testing

@testable import HLSPackCore
@testable import HLSPackVerify

/// An encrypted initialization section (`encryption.encrypt_init`) in the
/// playlists: its EXT-X-KEY, with an explicit IV, stands before the EXT-X-MAP
/// (RFC 8216bis §4.4.4.4, §4.4.4.5) in media and I-frame playlists, the
/// segments' own key tags follow, and what reads playlists back (verify,
/// rewrite-keys' scopes) sees which key tag applies to the EXT-X-MAP.
@Suite struct EncryptedInitPlaylistTests {
  static let uri = "../keys/k.key"
  static let initKey = KeyTag(method: .aes128, uri: uri, iv: Array(repeating: 0xAA, count: 16))

  static func segmentKey(_ byte: UInt8) -> KeyTag {
    KeyTag(method: .aes128, uri: uri, iv: Array(repeating: byte, count: 16))
  }

  static func lines(_ text: String) -> [String] {
    text.split(separator: "\n").map(String.init).filter {
      $0.hasPrefix("#EXT-X-KEY") || $0.hasPrefix("#EXT-X-MAP") || !$0.hasPrefix("#")
    }
  }

  @Test func theInitKeyTagComesBeforeTheMapAndEachSegmentKeepsItsOwn() {
    let playlist = MediaPlaylist(
      entries: [
        .init(uri: "s0.m4s", durationTicks: 90_000, key: Self.segmentKey(1)),
        .init(uri: "s1.m4s", durationTicks: 90_000, key: Self.segmentKey(2)),
      ], targetDuration: 1, map: "init.mp4", mapKey: Self.initKey)
    #expect(
      Self.lines(playlist.render()) == [
        "#EXT-X-KEY:METHOD=AES-128,URI=\"../keys/k.key\",IV=0x" + String(repeating: "AA", count: 16),
        "#EXT-X-MAP:URI=\"init.mp4\"",
        "#EXT-X-KEY:METHOD=AES-128,URI=\"../keys/k.key\",IV=0x" + String(repeating: "01", count: 16), "s0.m4s",
        "#EXT-X-KEY:METHOD=AES-128,URI=\"../keys/k.key\",IV=0x" + String(repeating: "02", count: 16), "s1.m4s",
      ])
    #expect(playlist.version == 6)
  }

  /// A fixed IV: one tag covers the section and every segment; a clear lead
  /// after it needs METHOD=NONE, the key tag in force otherwise encrypting it.
  @Test func aTagIsRepeatedOnlyWhereTheKeyChanges() {
    let fixed = MediaPlaylist(
      entries: [.init(uri: "s0.m4s", durationTicks: 90_000, key: Self.initKey)], targetDuration: 1, map: "init.mp4",
      mapKey: Self.initKey)
    #expect(Self.lines(fixed.render()).filter { $0.hasPrefix("#EXT-X-KEY") }.count == 1)
    let clearLead = MediaPlaylist(
      entries: [
        .init(uri: "s0.m4s", durationTicks: 90_000, key: .none),
        .init(uri: "s1.m4s", durationTicks: 90_000, key: Self.initKey),
      ], targetDuration: 1, map: "init.mp4", mapKey: Self.initKey)
    #expect(
      Self.lines(clearLead.render()).dropFirst(2) == [
        "#EXT-X-KEY:METHOD=NONE", "s0.m4s",
        "#EXT-X-KEY:METHOD=AES-128,URI=\"../keys/k.key\",IV=0x" + String(repeating: "AA", count: 16), "s1.m4s",
      ])
  }

  @Test func aClearMapStaysBeforeAnyKeyTag() {
    let playlist = MediaPlaylist(
      entries: [.init(uri: "s0.m4s", durationTicks: 90_000, key: Self.segmentKey(1))], targetDuration: 1,
      map: "init.mp4")
    #expect(Self.lines(playlist.render()).first == "#EXT-X-MAP:URI=\"init.mp4\"")
  }

  @Test func theIFramePlaylistDeclaresTheSameKeyForItsMap() {
    let playlist = IFramePlaylist(
      entries: [.init(uri: "s0.m4s", offset: 0, length: 100, durationTicks: 90_000, key: Self.segmentKey(1))],
      map: "init.mp4", targetDuration: 1, mapKey: Self.initKey)
    let lines = Self.lines(playlist.render())
    #expect(lines.prefix(3) == [
      "#EXT-X-KEY:METHOD=AES-128,URI=\"../keys/k.key\",IV=0x" + String(repeating: "AA", count: 16),
      "#EXT-X-MAP:URI=\"init.mp4\"",
      "#EXT-X-KEY:METHOD=AES-128,URI=\"../keys/k.key\",IV=0x" + String(repeating: "01", count: 16),
    ])
  }

  static let written = """
    #EXTM3U
    #EXT-X-VERSION:6
    #EXT-X-TARGETDURATION:1
    #EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x0A
    #EXT-X-MAP:URI="init.mp4"
    #EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x0B
    #EXTINF:1,
    s0.m4s
    #EXT-X-KEY:METHOD=SAMPLE-AES,URI="k2"
    #EXT-X-MAP:URI="init2.mp4"
    #EXTINF:1,
    s1.m4s
    #EXT-X-ENDLIST

    """

  /// rewrite-keys lists an AES-128 key's initialization section among what it
  /// encrypts, as encode's keys.json does; SAMPLE-AES leaves the section clear.
  @Test func scopesListTheSectionAnAES128KeyEncrypts() {
    let scopes = KeyTagScope.segments(in: Array(Self.written.utf8))
    #expect(scopes[0] == [.init(uri: "init.mp4", iv: "0x0A")])
    #expect(scopes[1] == [.init(uri: "s0.m4s", iv: "0x0B")])
    #expect(scopes[2] == [.init(uri: "s1.m4s", iv: nil)])
  }

  @Test func verifyReadsTheKeyInForceAtEachMap() {
    let playlist = VerifiedMediaPlaylist(PlaylistText(Array(Self.written.utf8)))
    #expect(playlist.segments.map { $0.mapKey?.value("IV") } == ["0x0A", nil])
    #expect(playlist.segments.map { $0.mapKey?.method } == ["AES-128", "SAMPLE-AES"])
    #expect(playlist.segments.map(\.mapLine) == [5, 10])
    #expect(playlist.segments.map { $0.key?.value("IV") } == ["0x0B", nil])
  }
}
