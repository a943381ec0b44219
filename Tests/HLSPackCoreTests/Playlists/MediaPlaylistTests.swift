import HLSPackTestSupport
import Testing

@testable import HLSPackCore

@Suite struct MediaPlaylistTests {
  static let keyURI = "../keys/00112233445566778899aabbccddeeff.key"

  static func iv(_ last: UInt8) -> [UInt8] {
    [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, last]
  }

  static func entries(_ ticks: [Int64], key: (Int) -> KeyTag) -> [MediaPlaylist.Entry] {
    ticks.enumerated().map {
      MediaPlaylist.Entry(uri: "segment-\($0.offset).ts", durationTicks: $0.element, key: key($0.offset))
    }
  }

  @Test func clearTS() throws {
    // 29.97 fps, 6 s segments cut at frame 180: 180·3003 = 540540 ticks = 6.006 s.
    let ticks: [Int64] = [540_540, 540_540, 180_180]
    let playlist = MediaPlaylist(
      entries: Self.entries(ticks) { _ in .none }, targetDuration: MediaPlaylist.targetDuration(forLongest: 540_540))
    try assertSnapshot(playlist.render(), named: "clear_ts")
  }

  @Test func aes128WithExplicitIVPerSegment() throws {
    let entries = Self.entries([360_000, 360_000, 133_200]) {
      KeyTag(method: .aes128, uri: Self.keyURI, iv: Self.iv(UInt8($0)))
    }
    let playlist = MediaPlaylist(entries: entries, targetDuration: 4)
    #expect(playlist.version == 3)
    try assertSnapshot(playlist.render(), named: "aes128_explicit_iv")
  }

  @Test func aes128WithSequenceIVs() throws {
    // The IV is derived from the media sequence number, so one key tag covers all segments.
    let key = KeyTag(method: .aes128, uri: "https://keys.example/asset/key", iv: nil)
    let playlist = MediaPlaylist(entries: Self.entries([540_000, 540_000, 3_600]) { _ in key }, targetDuration: 6)
    #expect(playlist.version == 3)
    try assertSnapshot(playlist.render(), named: "aes128_sequence_iv")
  }

  /// A clear lead then SAMPLE-AES: the discontinuity goes before the first
  /// encrypted segment's first I-frame, as in its media playlist (Apple HLS Authoring Spec 8.13–8.15).
  @Test func iFramePlaylistAfterAClearLead() throws {
    let key = KeyTag(method: .sampleAES, uri: Self.keyURI, iv: Self.iv(1))
    let entries = [
      IFramePlaylist.Entry(uri: "segment_00000.ts", offset: 564, length: 9024, durationTicks: 90_000, key: .none),
      IFramePlaylist.Entry(
        uri: "segment_00001.ts", offset: 564, length: 8836, durationTicks: 90_000, key: key, discontinuity: true),
      IFramePlaylist.Entry(uri: "segment_00002.ts", offset: 564, length: 9400, durationTicks: 45_000, key: key),
    ]
    try assertSnapshot(
      IFramePlaylist(entries: entries, map: nil, targetDuration: 1).render(), named: "iframes_clear_lead")
  }

  @Test(
    arguments: [
      (Int64(360_000), "4.000000"),
      (3_003, "0.033367"),
      (540_540, "6.006000"),
      (0, "0.000000"),
      (1, "0.000011"),
      (89_999, "0.999989"),
      (90_000 * 3_600, "3600.000000"),
    ] as [(Int64, String)])
  func formatDuration(ticks: Int64, expected: String) {
    #expect(MediaPlaylist.formatDuration(ticks) == expected)
  }

  /// ceil, not round, so the tag holds under both the pre-v6 and v6 rules (RFC 8216bis §4.4.3.1).
  @Test(
    arguments: [
      (Int64(540_000), Int64(6)), (540_001, 7), (585_000, 7), (0, 1), (1, 1), (90_000, 1), (90_001, 2),
    ] as [(Int64, Int64)])
  func targetDurationIsCeilingOfLongest(ticks: Int64, expected: Int64) {
    #expect(MediaPlaylist.targetDuration(forLongest: ticks) == expected)
  }

  /// Decimal EXTINF needs 3; an IV needs only 2 (RFC 8216bis §8).
  @Test func versionIsThreeWithOrWithoutIV() {
    let withIV = KeyTag(method: .aes128, uri: "k", iv: Self.iv(0))
    let withoutIV = KeyTag(method: .aes128, uri: "k", iv: nil)
    for keys in [[KeyTag.none], [withIV], [withoutIV], [withoutIV, withIV, .none]] {
      let playlist = MediaPlaylist(entries: Self.entries(keys.map { _ in 90_000 }) { keys[$0] }, targetDuration: 1)
      #expect(playlist.version == 3)
      #expect(playlist.render().contains("\n#EXT-X-VERSION:3\n"))
    }
    #expect(MediaPlaylist(entries: [], targetDuration: 1).version == 3)
  }

  @Test func mediaSequenceIsWrittenBeforeTheFirstSegment() throws {
    let playlist = MediaPlaylist(entries: Self.entries([90_000]) { _ in .none }, targetDuration: 1, mediaSequence: 42)
    let lines = playlist.render().split(separator: "\n")
    let sequence = try #require(lines.firstIndex(of: "#EXT-X-MEDIA-SEQUENCE:42"))
    let firstURI = try #require(lines.firstIndex(of: "segment-0.ts"))
    #expect(sequence < firstURI)
  }

  @Test func clearSegmentsAfterEncryptedOnesGetMethodNone() {
    let key = KeyTag(method: .aes128, uri: "k", iv: nil)
    let playlist = MediaPlaylist(
      entries: Self.entries([90_000, 90_000, 90_000]) { [key, .none, key][$0] }, targetDuration: 1)
    let keyLines = playlist.render().split(separator: "\n").filter { $0.hasPrefix("#EXT-X-KEY:") }
    #expect(
      keyLines == [
        #"#EXT-X-KEY:METHOD=AES-128,URI="k""#, "#EXT-X-KEY:METHOD=NONE", #"#EXT-X-KEY:METHOD=AES-128,URI="k""#,
      ])
  }
}
