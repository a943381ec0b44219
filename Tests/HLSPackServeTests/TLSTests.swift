import Foundation
import HLSPackTestSupport
import Testing

extension ServeEndToEnd {
  /// `--tls auto`: a local authority kept in the state folder, HTTPS on a second
  /// port beside HTTP, trusted by curl (`--cacert`) and the ffmpeg CLI (`-ca_file`).
  @Suite("serve: HTTPS")
  struct TLSTests {
    @Test func curlTrustsTheLocalAuthorityAndItIsKept() throws {
      let state = try ScratchFolder.make("state")
      let arguments = ["--tls", "auto", "--tls-port", "0", "--state", state.path, "--tls-name", "fixtures.test"]
      let server = try ServerProcess(folder: try ServeFixtures.tree(), arguments: arguments)
      let authority = try #require(server.authority)
      let tlsPort = try #require(server.tlsPort)
      #expect(authority == state.appendingPathComponent("ca.pem").path)
      for key in ["ca-key.pem", "server-key.pem"] {
        let mode =
          try FileManager.default.attributesOfItem(atPath: state.appendingPathComponent(key).path)[
            .posixPermissions] as? Int
        #expect(mode == 0o600, "\(key)")
      }

      for host in ["127.0.0.1", "localhost"] {
        let secure = try Curl.run("https://\(host):\(tlsPort)/master.m3u8", ["--cacert", authority])
        #expect(secure.status == 200, "\(host): \(secure.stderr)")
        #expect(secure.headers["content-type"] == "application/vnd.apple.mpegurl")
      }
      let named = try Curl.run(
        "https://fixtures.test:\(tlsPort)/master.m3u8",
        ["--cacert", authority, "--resolve", "fixtures.test:\(tlsPort):127.0.0.1"])
      #expect(named.status == 200, "\(named.stderr)")
      let untrusted = try Curl.run("https://127.0.0.1:\(tlsPort)/master.m3u8")
      #expect(untrusted.exitCode == 60, "curl: the peer's certificate is not trusted \(untrusted.stderr)")
      #expect(try Curl.run(server.base + "/master.m3u8").status == 200, "HTTP still answers")
      let schemes = try server.entries(path: "/master.m3u8", atLeast: 4).compactMap { $0["scheme"] as? String }
      #expect(schemes == ["https", "https", "https", "http"])
      #expect(server.stderr.contains("xcrun simctl keychain booted add-root-cert \(authority)"))
      _ = server.stop()

      let before = try Data(contentsOf: URL(fileURLWithPath: authority))
      let again = try ServerProcess(folder: try ServeFixtures.tree(), arguments: arguments)
      #expect(try Data(contentsOf: URL(fileURLWithPath: authority)) == before, "the authority is made once")
      let secure = try Curl.run(
        "https://127.0.0.1:\(try #require(again.tlsPort))/master.m3u8", ["--cacert", authority])
      #expect(secure.status == 200, "\(secure.stderr)")
    }

    @Test func ffmpegPlaysOverHTTPSWithTheAuthorityAndTheKeysToken() throws {
      let package = try ServeFixtures.aesPackage()
      let scenario = try ServeFixtures.scenario(
        #"""
        {"rules": [{"match": {"kind": "key"}, "action": {"require": [{"header": "Authorization", "value": "Bearer x"}]}}]}
        """#)
      let state = try ScratchFolder.make("state")
      let server = try ServerProcess(
        folder: package,
        arguments: ["--tls", "auto", "--tls-port", "0", "--state", state.path, "--scenario", scenario])
      let url = "https://127.0.0.1:\(try #require(server.tlsPort))/sample/master.m3u8"
      let authority = try #require(server.authority)
      let played = try ServeFixtures.play(
        url, ["-tls_verify", "1", "-ca_file", authority, "-headers", "Authorization: Bearer x\r\n"])
      #expect(played.status == 0, "\(played.stderr)")
      let keyPath = try ServeFixtures.keyPath(in: package)
      let keys = try server.entries(path: keyPath)
      #expect(keys.count == 1)
      #expect(keys.first?["scheme"] as? String == "https")
      #expect((keys.first?["headers"] as? [String: String])?["authorization"] == "Bearer ***")

      let untrusted = try ServeFixtures.play(url, ["-tls_verify", "1"])
      #expect(untrusted.status != 0, "without the authority the certificate is refused")
    }

    @Test func httpsPortInUseIsAClearError() throws {
      let state = try ScratchFolder.make("state")
      let folder = try ServeFixtures.tree()
      let tls = ["--tls", "auto", "--state", state.path]
      let server = try ServerProcess(folder: folder, arguments: tls + ["--tls-port", "0"])
      let taken = try #require(server.tlsPort)
      let second = try Command.run(
        try ServerProcess.executable(), ["serve", folder.path, "--port", "0", "--tls-port", String(taken)] + tls)
      #expect(second.status == 1)
      #expect(second.stderr.contains("127.0.0.1:\(taken): address already in use"), "\(second.stderr)")
    }

    @Test func unreadableCertificateIsAClearError() throws {
      let folder = try ServeFixtures.tree()
      let run = try Command.run(
        try ServerProcess.executable(),
        ["serve", folder.path, "--port", "0", "--tls", folder.path + "/missing.pem," + folder.path + "/keys/k.key"])
      #expect(run.status == 2)
      #expect(run.stderr.contains("missing.pem: unusable certificate or key"), "\(run.stderr)")
    }
  }
}
