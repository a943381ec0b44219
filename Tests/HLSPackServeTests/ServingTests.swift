import Foundation
import HLSPackTestSupport
import Testing

extension ServeEndToEnd {
  /// `hlspack serve` as curl sees it: media types, validators, byte ranges,
  /// HEAD, CORS, the folder's boundary, and starting and stopping.
  @Suite("serve: static files")
  struct ServingTests {
    @Test func mediaTypesValidatorsAndCORS() throws {
      let server = try ServerProcess(folder: try ServeFixtures.tree())
      let expected = [
        "/master.m3u8": "application/vnd.apple.mpegurl", "/src/index.m3u8": "application/vnd.apple.mpegurl",
        "/src/segment_00003.ts": "video/mp2t", "/audio/en/init.mp4": "audio/mp4",
        "/audio/en/segment_00001.m4s": "audio/mp4", "/keys/k.key": "application/octet-stream",
        "/sub/en.vtt": "text/vtt; charset=utf-8",
      ]
      for (path, type) in expected {
        let got = try Curl.run(server.base + path)
        #expect(got.status == 200, "\(path)")
        #expect(got.headers["content-type"] == type, "\(path)")
        #expect(got.headers["access-control-allow-origin"] == "*", "\(path)")
        #expect(got.headers["access-control-expose-headers"]?.contains("Content-Range") == true)
        #expect(got.headers["accept-ranges"] == "bytes")
        #expect(got.headers["etag"]?.hasPrefix("\"") == true)
        #expect(got.headers["last-modified"]?.hasSuffix(" GMT") == true)
      }
      _ = try server.entries(path: "/sub/en.vtt")
      var kinds: [String: String] = [:]
      for entry in try server.log() {
        kinds[entry["path"] as? String ?? ""] = entry["kind"] as? String
      }
      #expect(kinds["/master.m3u8"] == "master")
      #expect(kinds["/src/index.m3u8"] == "media")
      #expect(kinds["/src/segment_00003.ts"] == "segment")
      #expect(kinds["/audio/en/init.mp4"] == "init")
      #expect(kinds["/keys/k.key"] == "key")
      #expect(kinds["/sub/en.vtt"] == "subtitles")
    }

    @Test func singleRangesAnd416() throws {
      let server = try ServerProcess(folder: try ServeFixtures.tree())
      let url = server.base + "/src/segment_00003.ts"
      let bytes = ServeFixtures.segmentBytes

      let first = try Curl.run(url, ["-H", "Range: bytes=10-19"])
      #expect(first.status == 206)
      #expect(first.headers["content-range"] == "bytes 10-19/1000")
      #expect(first.headers["content-length"] == "10")
      #expect(first.body == bytes[10...19])

      let suffix = try Curl.run(url, ["-H", "Range: bytes=-5"])
      #expect(suffix.status == 206)
      #expect(suffix.body == bytes[995...])
      let open = try Curl.run(url, ["-H", "Range: bytes=990-"])
      #expect(open.headers["content-range"] == "bytes 990-999/1000")
      #expect(open.body == bytes[990...])

      let past = try Curl.run(url, ["-H", "Range: bytes=1000-"])
      #expect(past.status == 416)
      #expect(past.headers["content-range"] == "bytes */1000")

      let etag = try #require(first.headers["etag"])
      let sameFile = try Curl.run(url, ["-H", "Range: bytes=0-3", "-H", "If-Range: \(etag)"])
      #expect(sameFile.status == 206)
      #expect(sameFile.body == bytes[0...3])
      let otherFile = try Curl.run(url, ["-H", "Range: bytes=0-3", "-H", "If-Range: \"other\""])
      #expect(otherFile.status == 200)
      #expect(otherFile.body == bytes)
      let notModified = try Curl.run(url, ["-H", "If-None-Match: \(etag)"])
      #expect(notModified.status == 304)

      let entry = try #require(server.entries(path: "/src/segment_00003.ts").first)
      #expect(entry["range"] as? String == "bytes=10-19")
      #expect(entry["status"] as? Int == 206)
      #expect(entry["bytes"] as? Int == 10)
      #expect(entry["rendition"] as? String == "src")
      #expect(entry["segment"] as? Int == 3)
    }

    @Test func logSecretsShowsCredentialsAsSent() throws {
      let server = try ServerProcess(folder: try ServeFixtures.tree(), arguments: ["--log-secrets"])
      _ = try Curl.run(server.base + "/keys/k.key?token=abc", ["-H", "Authorization: Bearer x", "-b", "s=1"])
      let entry = try #require(server.entries(path: "/keys/k.key").first)
      #expect(entry["query"] as? String == "token=abc")
      let headers = entry["headers"] as? [String: String]
      #expect(headers?["authorization"] == "Bearer x")
      #expect(headers?["cookie"] == "s=1")
    }

    @Test func headAndPreflight() throws {
      let server = try ServerProcess(folder: try ServeFixtures.tree())
      let head = try Curl.run(server.base + "/src/segment_00003.ts", ["-I"])
      #expect(head.status == 200)
      #expect(head.headers["content-length"] == "1000")
      let headEntry = try #require(server.entries(path: "/src/segment_00003.ts").first)
      #expect(headEntry["method"] as? String == "HEAD")
      #expect(headEntry["bytes"] as? Int == 0)

      let preflight = try Curl.run(
        server.base + "/keys/k.key",
        [
          "-X", "OPTIONS", "-H", "Origin: https://player.example", "-H", "Access-Control-Request-Method: GET",
          "-H", "Access-Control-Request-Headers: authorization",
        ])
      #expect(preflight.status == 204)
      #expect(preflight.headers["access-control-allow-origin"] == "*")
      #expect(preflight.headers["access-control-allow-methods"] == "GET, HEAD, OPTIONS")
      #expect(preflight.headers["access-control-allow-headers"] == "authorization")
    }

    @Test func neverOutsideTheFolderAndNoListings() throws {
      let server = try ServerProcess(folder: try ServeFixtures.tree())
      for path in [
        "/../etc/passwd", "/src/../../etc/passwd", "/%2e%2e/etc/passwd", "/src/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
      ] {
        let got = try Curl.run(server.base + path, ["--path-as-is"])
        #expect(got.status == 403, "\(path)")
      }
      #expect(try Curl.run(server.base + "/escape.ts").status == 403)
      #expect(try Curl.run(server.base + "/empty/").status == 404)
      #expect(try Curl.run(server.base + "/src").status == 404)
      #expect(try Curl.run(server.base + "/").status == 404)
      #expect(try Curl.run(server.base + "/missing.ts").status == 404)
      #expect(try Curl.run(server.base + "/keys/k.key", ["-X", "DELETE"]).status == 405)
    }

    @Test func stopsOnSIGTERMAndExplainsWhyItCannotStart() throws {
      let folder = try ServeFixtures.tree()
      let server = try ServerProcess(folder: folder)
      let second = try Command.run(
        try ServerProcess.executable(), ["serve", folder.path, "--port", String(server.port)])
      #expect(second.status == 1)
      #expect(second.stderr.contains("address already in use"), "\(second.stderr)")
      #expect(server.stop() == 0)

      let missing = try Command.run(try ServerProcess.executable(), ["serve", folder.path + "/nothing", "--port", "0"])
      #expect(missing.status == 2)
      #expect(missing.stderr.contains("no such folder"), "\(missing.stderr)")
    }
  }
}
