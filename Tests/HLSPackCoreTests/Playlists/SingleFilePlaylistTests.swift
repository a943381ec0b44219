import Foundation
import Testing

@testable import HLSPackCore

/// `segment.single_file`: what the profile accepts and refuses, how the
/// playlists address one file, and the `free` box that aligns an AES-128
/// fMP4 file's first fragment.
@Suite struct SingleFilePlaylistTests {
  static func load(_ segment: String, encryption: String? = nil) throws -> Profile {
    var root: ProfileJSON.Changes = ["segment": segment]
    if let encryption { root = ["segment": segment, "encryption": encryption] }
    return try ProfileLoader.load(
      data: Data(ProfileJSON.profile(root).utf8), file: "test.json", baseDirectory: URL(fileURLWithPath: "/profiles"))
  }

  @Test(arguments: [
    (#"{"duration": 2, "single_file": true}"#, nil),
    (#"{"duration": 2, "container": "fmp4", "single_file": true}"#, #"{"method": "aes-128"}"#),
    (#"{"duration": 2, "single_file": true}"#, #"{"method": "sample-aes"}"#),
    (#"{"duration": 2, "container": "fmp4", "single_file": true}"#, #"{"method": "sample-aes"}"#),
    (#"{"duration": 2, "single_file": true}"#, #"{"method": "aes-128", "rotate_every": 2, "scope": "rendition"}"#),
  ] as [(String, String?)])
  func loads(_ segment: String, _ encryption: String?) throws {
    #expect(try Self.load(segment, encryption: encryption).segment.singleFile)
  }

  @Test func offByDefault() throws {
    #expect(try !Self.load(#"{"duration": 2}"#).segment.singleFile)
  }

  @Test(arguments: [
    (#"{"method": "aes-128", "iv": "sequence", "scope": "rendition"}"#, "$.encryption.iv", "16 bytes before it"),
    (#"{"method": "aes-128", "iv": "000102030405060708090a0b0c0d0e0f"}"#, "$.encryption.iv", "fixed"),
    (#"{"method": "aes-128", "clear_lead_segments": 1}"#, "$.encryption.clear_lead_segments", "16-byte"),
    (#"{"method": "aes-128", "encrypt_init": true}"#, "$.encryption.encrypt_init", "single_file"),
    (#"{"method": "none"}"#, "$.segment.single_file", "expected true or false"),
  ])
  func whatCannotApplyIsRefusedNamingTheField(_ encryption: String, _ path: String, _ words: String) throws {
    let segment =
      path == "$.segment.single_file"
      ? #"{"duration": 2, "single_file": "yes"}"# : #"{"duration": 2, "single_file": true}"#
    do {
      _ = try Self.load(segment, encryption: encryption)
      Issue.record("accepted \(encryption)")
    } catch let error as ProfileError {
      #expect(error.path == path)
      #expect(error.message.contains(words), "\(error.message)")
    }
  }

  @Test func mediaPlaylistNamesEveryRangeWithItsOffset() {
    let key = KeyTag(method: .aes128, uri: "k.key", iv: [UInt8](repeating: 7, count: 16))
    let playlist = MediaPlaylist(
      entries: [
        .init(uri: "media.mp4", durationTicks: 180_000, key: key, byteRange: .init(length: 4016, offset: 1184)),
        .init(uri: "media.mp4", durationTicks: 90_000, key: key, byteRange: .init(length: 2000, offset: 5200)),
      ],
      targetDuration: 2, map: "media.mp4", mapRange: .init(length: 1184, offset: 0))
    let text = playlist.render()
    #expect(text.contains("#EXT-X-MAP:URI=\"media.mp4\",BYTERANGE=\"1184@0\"\n"))
    #expect(text.contains("#EXTINF:2.000000,\n#EXT-X-BYTERANGE:4016@1184\nmedia.mp4\n"))
    #expect(text.contains("#EXT-X-BYTERANGE:2000@5200\nmedia.mp4\n"))
    #expect(playlist.version == 6)
  }

  @Test func transportStreamRangesNeedVersion4() {
    let playlist = MediaPlaylist(
      entries: [.init(uri: "media.ts", durationTicks: 90_000, key: .none, byteRange: .init(length: 188, offset: 0))],
      targetDuration: 1)
    #expect(playlist.version == 4)
    #expect(playlist.render().contains("#EXT-X-VERSION:4\n"))
    let separate = MediaPlaylist(entries: [.init(uri: "a.ts", durationTicks: 90_000, key: .none)], targetDuration: 1)
    #expect(separate.version == 3)
  }

  @Test(arguments: 0..<40)
  func alignmentBoxEndsOnABlockWithTheIV(_ length: Int) throws {
    let iv = (0..<16).map { UInt8($0 + 100) }
    let box = SingleFileLayout.alignmentBox(after: 1000 + length, endingWith: iv)
    #expect((1000 + length + box.count) % 16 == 0)
    #expect(box.count >= 24 && box.count < 40)
    #expect(Array(box.suffix(16)) == iv)
    #expect(Array(box[4..<8]) == Array("free".utf8))
    #expect(Int(box[0]) << 24 | Int(box[1]) << 16 | Int(box[2]) << 8 | Int(box[3]) == box.count)
  }

  @Test func keyTagScopeResolvesByteRanges() {
    let playlist = """
      #EXTM3U
      #EXT-X-KEY:METHOD=AES-128,URI="k.key",IV=0x01
      #EXTINF:2,
      #EXT-X-BYTERANGE:32@16
      media.ts
      #EXTINF:2,
      #EXT-X-BYTERANGE:48
      media.ts
      #EXTINF:2,
      other.ts
      """
    let scopes = KeyTagScope.segments(in: Array(playlist.utf8))
    #expect(scopes.first?.map(\.byteRange) == ["32@16", "48@48", nil])
  }
}
