import Foundation
import HLSPackTestSupport
import Testing

extension ServeEndToEnd {
  /// The ffmpeg CLI plays an AES-128 package from `hlspack encode --seed 1`
  /// over HTTP, and the request log shows what it asked for.
  @Suite("serve: playback with ffmpeg")
  struct PlaybackTests {
    @Test func ffmpegPlaysTheAES128PackageAndFetchesTheKeyOnce() throws {
      let package = try ServeFixtures.aesPackage()
      let server = try ServerProcess(folder: package)
      let played = try ServeFixtures.play(server.base + "/sample/master.m3u8")
      #expect(played.status == 0, "\(played.stderr)")
      #expect(!played.stderr.contains("decrypt"), "\(played.stderr)")

      let keyPath = try ServeFixtures.keyPath(in: package)
      let keys = try server.entries(path: keyPath)
      #expect(keys.count == 1)
      #expect(keys.first?["kind"] as? String == "key")
      // FFmpeg's http protocol asks for "bytes=0-" and gets the whole file as a 206.
      #expect(keys.first?["status"] as? Int == 206)
      #expect(keys.first?["range"] as? String == "bytes=0-")
      #expect(keys.first?["bytes"] as? Int == 16)
      let log = try server.log()
      #expect(log.first?["kind"] as? String == "master")
      let segments = log.filter { $0["kind"] as? String == "segment" }
      #expect(segments.compactMap { $0["segment"] as? Int } == [0, 1, 2])
      #expect(segments.allSatisfy { $0["status"] as? Int == 206 && $0["rendition"] as? String == "src" })
    }

    @Test func keysThatNeedABearerTokenPlayOnlyWithTheHeader() throws {
      let package = try ServeFixtures.aesPackage()
      let scenario = try ServeFixtures.scenario(
        #"""
        {"rules": [{"name": "app token on keys", "match": {"kind": "key"},
                    "action": {"require": [{"header": "Authorization", "value": "Bearer x"}]}}]}
        """#)
      let server = try ServerProcess(folder: package, arguments: ["--scenario", scenario])
      let keyPath = try ServeFixtures.keyPath(in: package)

      let withHeader = try ServeFixtures.play(
        server.base + "/sample/master.m3u8", ["-headers", "Authorization: Bearer x\r\n"])
      #expect(withHeader.status == 0, "\(withHeader.stderr)")
      let granted = try server.entries(path: keyPath)
      #expect(granted.count == 1)
      #expect(granted.first?["status"] as? Int == 206)
      let headers = granted.first?["headers"] as? [String: String]
      #expect(headers?["authorization"] == "Bearer ***", "the log masks the token")
      #expect(granted.first?["rules"] as? [String] == ["app token on keys"])

      let without = try ServeFixtures.play(server.base + "/sample/master.m3u8")
      #expect(without.status != 0)
      #expect(without.stderr.contains("Unable to open key file"), "\(without.stderr)")
      let refused = try server.entries(path: keyPath, atLeast: 2).dropFirst()
      #expect(refused.first?["status"] as? Int == 401)
      #expect(refused.first?["faults"] as? [String] == ["unauthorized"])
    }
  }
}
