import Foundation
import HLSPackTestSupport
import Testing

extension ServeEndToEnd {
  /// `hlspack verify` reading a package from `hlspack serve` as users are told
  /// to: over HTTPS with serve's local authority, and at the IPv6 URL serve prints.
  @Suite("verify through serve")
  struct VerifyThroughServeTests {
    func verify(_ arguments: [String]) throws -> CommandResult {
      try Command.run(try ServerProcess.executable(), ["verify"] + arguments)
    }

    /// `--cacert` trusts the authority in addition to the system store; without it the
    /// certificate is refused, with a message that names the option.
    @Test func httpsWithTheLocalAuthority() throws {
      let state = try ScratchFolder.make("state")
      let server = try ServerProcess(
        folder: try ServeFixtures.aesPackage(), arguments: ["--tls", "auto", "--tls-port", "0", "--state", state.path])
      let url = "https://127.0.0.1:\(try #require(server.tlsPort))/sample/master.m3u8"
      let authority = try #require(server.authority)
      let trusted = try verify(["--cacert", authority, url])
      #expect(trusted.status == 0, "\(trusted.text)")
      #expect(trusted.text.contains("0 must-fix rules"), "\(trusted.text)")
      let untrusted = try verify([url])
      #expect(untrusted.status == 2)
      #expect(untrusted.stderr.contains("not trusted; --cacert FILE"), "\(untrusted.stderr)")
      let notPEM = try verify(["--cacert", state.appendingPathComponent("nothing.pem").path, url])
      #expect(notPEM.status == 64, "\(notPEM.stderr)")
    }

    /// `serve --host ::1` prints http://[::1]:PORT/; verify reads from it.
    @Test func ipv6LiteralURL() throws {
      let server = try ServerProcess(folder: try ServeFixtures.aesPackage(), arguments: ["--host", "::1"])
      let run = try verify(["http://[::1]:\(server.port)/sample/master.m3u8"])
      #expect(run.status == 0, "\(run.text)")
      #expect(run.text.contains("0 must-fix rules"), "\(run.text)")
    }
  }
}
