import Foundation
import HLSPackTestSupport
import Testing

extension ServeEndToEnd {
  /// `hlspack serve --gzip`: playlists, and only they, gzip-compressed for
  /// clients that accept it, from a folder and through the proxy.
  @Suite("serve: gzip of playlists")
  struct GzipTests {
    static let playlist = "/src/index.m3u8"

    static func playlistText(_ root: URL) throws -> Data {
      try Data(contentsOf: root.appendingPathComponent("src/index.m3u8"))
    }

    @Test func playlistsAreCompressedForClientsThatAcceptGzip() throws {
      let root = try ServeFixtures.tree()
      let server = try ServerProcess(folder: root, arguments: ["--gzip"])
      let url = server.base + Self.playlist

      let zipped = try Curl.run(url, ["--compressed"])
      #expect(zipped.status == 200)
      #expect(zipped.headers["content-encoding"] == "gzip")
      #expect(zipped.headers["vary"] == "Accept-Encoding")
      #expect(zipped.body == (try Self.playlistText(root)), "curl decompressed it")
      let plain = try Curl.run(url)
      #expect(plain.headers["content-encoding"] == nil)
      #expect(plain.headers["vary"] == "Accept-Encoding")
      #expect(plain.body == (try Self.playlistText(root)))
      let zippedTag = try #require(zipped.headers["etag"])
      #expect(zippedTag.hasSuffix("-gzip\""))
      #expect(plain.headers["etag"].map { String($0.dropLast()) + "-gzip\"" } == zippedTag)
      #expect(try Curl.run(url, ["--compressed", "-H", "If-None-Match: \(zippedTag)"]).status == 304)

      let part = try Curl.run(url, ["--compressed", "-H", "Range: bytes=0-6"])
      #expect(part.status == 206)
      #expect(part.headers["content-encoding"] == nil, "a range is of the identity encoding")
      #expect(part.text == "#EXTM3U")
      let segment = try Curl.run(server.base + "/src/segment_00003.ts", ["--compressed"])
      #expect(segment.headers["content-encoding"] == nil)
      #expect(segment.headers["vary"] == nil)
      #expect(segment.body == ServeFixtures.segmentBytes)

      let logged = try server.entries(path: Self.playlist, atLeast: 3)
      let size = try Self.playlistText(root).count
      #expect(logged.first?["bytes"] as? Int == zipped.headers["content-length"].flatMap { Int($0) })
      #expect(logged.dropFirst().first?["bytes"] as? Int == size)
    }

    @Test func withoutTheFlagPlaylistsAreSentAsTheyAre() throws {
      let server = try ServerProcess(folder: try ServeFixtures.tree())
      let got = try Curl.run(server.base + Self.playlist, ["--compressed"])
      #expect(got.headers["content-encoding"] == nil)
      #expect(got.headers["vary"] == nil)
    }

    @Test func theProxyCompressesTheOriginsPlaylists() throws {
      let root = try ServeFixtures.tree()
      let origin = try ServerProcess(folder: root)
      let proxy = try ServerProcess(folder: nil, arguments: ["--upstream", origin.base, "--gzip"])
      let zipped = try Curl.run(proxy.base + Self.playlist, ["--compressed"])
      #expect(zipped.status == 200)
      #expect(zipped.headers["content-encoding"] == "gzip")
      #expect(zipped.body == (try Self.playlistText(root)))
      let head = try Curl.run(proxy.base + Self.playlist, ["--compressed", "-I"])
      #expect(head.headers["content-encoding"] == "gzip")
      #expect(head.headers["content-length"] == zipped.headers["content-length"])
      let tag = try #require(zipped.headers["etag"])
      let again = try Curl.run(proxy.base + Self.playlist, ["--compressed", "-H", "If-None-Match: \(tag)"])
      #expect(again.status == 304, "the origin matched the identity tag")
      #expect(again.headers["etag"] == tag)
    }

    /// FFmpeg asks for `Range: bytes=0-` unless told not to seek, and a Range
    /// request gets the identity encoding: without seeking it gets gzip.
    @Test func ffmpegPlaysGzippedPlaylists() throws {
      let package = try ServeFixtures.aesPackage()
      let server = try ServerProcess(folder: package, arguments: ["--gzip"])
      let played = try ServeFixtures.play(
        server.base + "/sample/master.m3u8",
        ["-seekable", "0", "-http_seekable", "0", "-headers", "Accept-Encoding: gzip\r\n"])
      #expect(played.status == 0, "\(played.stderr)")
      for path in ["sample/master.m3u8", "sample/src/index.m3u8"] {
        let entry = try #require(server.entries(path: "/" + path).first)
        let size = try Data(contentsOf: package.appendingPathComponent(path)).count
        #expect(entry["status"] as? Int == 200)
        #expect((entry["bytes"] as? Int ?? size) < size, "\(path) sent compressed")
      }
      let segments = try server.log().filter { $0["kind"] as? String == "segment" }
      #expect(segments.count == 3)
    }
  }
}
