import Foundation
import HLSPackTestSupport
import Testing

extension ServeEndToEnd {
  /// Headless Chromium plays the shipped ladder (TS, AES-128) in its own HLS
  /// player, a bare `<video src=master.m3u8>` with no script library: it
  /// fetches the playlists, the key and the segments itself, and decrypts and
  /// decodes H.264 and AAC to the end, over HTTP and over HTTPS. Skipped,
  /// saying why, when chromium, playwright or certutil is not installed.
  @Suite("serve: native HLS playback in headless Chromium")
  struct ChromiumTests {
    @Test(.enabled(if: Chromium.isAvailable, Chromium.skipMessage))
    func chromiumPlaysTheAES128LadderToTheEnd() throws {
      let package = try ServeFixtures.ladderPackage()
      let server = try ServerProcess(folder: package)
      let played = try Chromium.play(server.base + "/sample/master.m3u8")

      #expect(played.canPlay == "maybe", "Chromium's answer to canPlayType of an HLS playlist")
      #expect(played.error == nil && played.ended, "\(played.summary)")
      #expect(played.currentTime >= 9.9, "\(played.summary)")
      #expect(played.decodedFrames == (try Self.sourcePictures()), "every picture of the 10 s sample")
      #expect(played.videoWidth > 0 && played.audioDecodedBytes > 0)

      let log = try server.log()
      #expect(!log.isEmpty)
      for entry in log {
        let headers = entry["headers"] as? [String: String]
        #expect(headers?["user-agent"] == played.userAgent, "\(entry)")
        #expect([200, 206].contains(entry["status"] as? Int), "\(entry)")
      }
      let kinds = log.compactMap { $0["kind"] as? String }
      #expect(kinds.first == "master", "\(kinds)")
      #expect(Set(kinds) == ["master", "media", "key", "segment"], "\(kinds)")
      let keyPath = try ServeFixtures.keyPath(in: package, rendition: "720p")
      #expect(log.contains { $0["path"] as? String == keyPath && $0["bytes"] as? Int == 16 })
      let segments = log.filter { $0["kind"] as? String == "segment" }.compactMap { $0["segment"] as? Int }
      #expect(Set(segments) == [0, 1, 2], "each of the three segments, from whichever rendition Chromium chose")
    }

    /// Wrong key bytes make Chromium fail instead of playing: the test above
    /// played because Chromium decrypted the segments with the key it fetched.
    @Test(.enabled(if: Chromium.isAvailable, Chromium.skipMessage))
    func aWrongKeyStopsChromiumWithAMediaError() throws {
      let package = try ServeFixtures.ladderPackage()
      let scenario = try ServeFixtures.scenario(
        #"{"rules": [{"name": "wrong key", "match": {"kind": "key"}, "action": {"key": "wrong"}}]}"#)
      let server = try ServerProcess(folder: package, arguments: ["--scenario", scenario])
      let played = try Chromium.play(server.base + "/sample/master.m3u8", timeout: 20)

      #expect(played.error != nil && !played.ended, "\(played.summary)")
      #expect(played.currentTime < 1, "\(played.summary)")
      let keyPath = try ServeFixtures.keyPath(in: package, rendition: "720p")
      let keys = try server.entries(path: keyPath)
      #expect(keys.first?["faults"] as? [String] == ["key_wrong"], "\(keys)")
    }

    /// Over `--tls auto` Chromium plays only because its NSS database trusts the
    /// generated authority (no flag that ignores certificate errors): with an
    /// empty database the handshake fails and no request reaches the server.
    @Test(.enabled(if: Chromium.isAvailable && Chromium.canTrustAuthorities, Chromium.trustSkipMessage))
    func chromiumPlaysTheLadderOverHTTPSTrustingTheLocalAuthority() throws {
      let package = try ServeFixtures.ladderPackage()
      let state = try ScratchFolder.make("state")
      let server = try ServerProcess(
        folder: package, arguments: ["--tls", "auto", "--tls-port", "0", "--state", state.path])
      let url = "https://127.0.0.1:\(try #require(server.tlsPort))/sample/master.m3u8"

      let untrusted = try Chromium.play(url, timeout: 10, home: try ScratchFolder.make("chromium-home"))
      #expect(untrusted.error != nil && !untrusted.ended, "\(untrusted.summary)")
      #expect(try server.log().isEmpty, "no request passes an untrusted handshake")

      let played = try Chromium.play(url, home: try Chromium.home(trusting: try #require(server.authority)))
      #expect(played.error == nil && played.ended, "\(played.summary)")
      #expect(played.currentTime >= 9.9, "\(played.summary)")
      #expect(played.decodedFrames == (try Self.sourcePictures()), "every picture of the 10 s sample")
      let log = try server.log()
      #expect(Set(log.compactMap { $0["kind"] as? String }) == ["master", "media", "key", "segment"], "\(log)")
      for entry in log {
        #expect(entry["scheme"] as? String == "https", "every request came to the TLS port: \(entry)")
        #expect([200, 206].contains(entry["status"] as? Int), "\(entry)")
      }
    }

    /// Pictures in the repository's sample, counted by ffprobe.
    static func sourcePictures() throws -> Int {
      let run = try Command.run(
        "ffprobe",
        [
          "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries", "stream=nb_read_packets", "-of",
          "csv=p=0", ServeFixtures.repository.appendingPathComponent("samples/sample.mp4").path,
        ])
      guard let count = Int(run.text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw FixtureError("ffprobe counted no pictures in samples/sample.mp4: \(run.stderr)")
      }
      return count
    }
  }
}
