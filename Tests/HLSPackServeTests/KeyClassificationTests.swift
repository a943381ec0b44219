import Foundation
import HLSPackTestSupport
import Testing

extension ServeEndToEnd {
  /// A key whose name says nothing (`key.bin`, a bare token) is a key to the
  /// log and the rules once a playlist names it in EXT-X-KEY: folder mode reads
  /// the folder's playlists, proxy mode the playlists it passes on.
  @Suite("serve: keys named by playlists")
  struct KeyClassificationTests {
    static let keyBytes = Data((0..<16).map { UInt8($0 + 100) })
    static let playlist = "/sample/720p/index.m3u8"
    static let keys = ["/sample/secrets/key.bin", "/sample/lic/0a1b"]
    static let other = "/sample/notes/readme.bin"

    /// A media playlist with a relative key URI and an absolute https one, its key files, and an unnamed `.bin`.
    static func folder() throws -> URL {
      let root = try ScratchFolder.make("named-keys")
      func write(_ path: String, _ data: Data) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
      }
      try write(
        String(playlist.dropFirst()),
        Data(
          """
          #EXTM3U
          #EXT-X-TARGETDURATION:4
          #EXT-X-KEY:METHOD=AES-128,URI="../secrets/key.bin"
          #EXTINF:4,
          segment_00000.ts
          #EXT-X-KEY:METHOD=AES-128,URI="https://license.example/sample/lic/0a1b"
          #EXTINF:4,
          segment_00001.ts
          #EXT-X-ENDLIST

          """.utf8))
      for key in keys { try write(String(key.dropFirst()), keyBytes) }
      try write(String(other.dropFirst()), keyBytes)
      return root
    }

    static let scenario = #"{"rules": [{"name": "wrong keys", "match": {"kind": "key"}, "action": {"key": "wrong"}}]}"#

    @Test func theFoldersPlaylistsNameItsKeys() throws {
      let folder = try Self.folder()
      let server = try ServerProcess(
        folder: folder, arguments: ["--scenario", try ServeFixtures.scenario(Self.scenario)])
      for key in Self.keys {
        let got = try Curl.run(server.base + key)
        #expect(got.status == 200)
        #expect(got.body == Data(Self.keyBytes.map { ~$0 }), "\(key) is a key before any playlist was asked for")
        let entry = try #require(server.entries(path: key).first)
        #expect(entry["kind"] as? String == "key", "\(entry)")
        #expect(entry["faults"] as? [String] == ["key_wrong"] && entry["rules"] as? [String] == ["wrong keys"])
      }
      let unnamed = try Curl.run(server.base + Self.other)
      #expect(unnamed.body == Self.keyBytes, "a file no playlist names keeps its bytes")
      let entry = try #require(server.entries(path: Self.other).first)
      #expect(entry["kind"] as? String == "other" && entry["rules"] == nil, "\(entry)")

      // A playlist written after the folder was read names its key from its first request on.
      let late = "/sample/late/index.m3u8"
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("sample/late"), withIntermediateDirectories: true)
      try Data("#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"../notes/readme.bin\"\n".utf8).write(
        to: folder.appendingPathComponent(String(late.dropFirst())))
      #expect(try Curl.run(server.base + late).status == 200)
      #expect(try Curl.run(server.base + Self.other).body == Data(Self.keyBytes.map { ~$0 }))
      let named = try server.entries(path: Self.other, atLeast: 2)
      #expect(named.map { $0["kind"] as? String } == ["other", "key"])
    }

    @Test func theProxyLearnsKeysFromThePlaylistsItPassesOn() throws {
      let folder = try Self.folder()
      let origin = try ServerProcess(folder: folder)
      let proxy = try ProxyTests.proxy(to: origin, ["--scenario", try ServeFixtures.scenario(Self.scenario)])
      let key = Self.keys[0]
      #expect(try Curl.run(proxy.base + key).body == Self.keyBytes, "no playlist has named it yet")
      let playlist = try Curl.run(proxy.base + Self.playlist)
      #expect(playlist.status == 200)
      let stored = try Data(contentsOf: folder.appendingPathComponent(String(Self.playlist.dropFirst())))
      #expect(playlist.body == stored, "the playlist passes on unchanged")
      let named = try Curl.run(proxy.base + key)
      #expect(named.body == Data(Self.keyBytes.map { ~$0 }))
      let entries = try proxy.entries(path: key, atLeast: 2)
      #expect(entries.map { $0["kind"] as? String } == ["other", "key"])
      #expect(entries.map { $0["faults"] as? [String] ?? [] } == [[], ["key_wrong"]])
    }
  }
}
