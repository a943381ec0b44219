import Foundation
import HLSPackTestSupport
import Testing

extension ServeEndToEnd {
  /// The certificates `--tls auto` makes, as the openssl CLI reads them: what
  /// clients check (RFC 5280; Apple's limit of 825 days, HT210176), and an
  /// authority made elsewhere (an earlier hlspack, the openssl CLI) kept.
  @Suite("serve: HTTPS certificates")
  struct TLSCertificateTests {
    static func openssl(_ arguments: [String]) throws -> CommandResult { try Command.run("openssl", arguments) }

    @Test func theCertificatesSayWhatClientsCheck() throws {
      let state = try ScratchFolder.make("state").appendingPathComponent("ca")
      let names = ["--tls-name", "fixtures.test", "--tls-name", "ünï.example", "--tls-name", "10.1.2.3"]
      let server = try ServerProcess(
        folder: try ServeFixtures.tree(), arguments: ["--tls", "auto", "--tls-port", "0", "--state", state.path] + names)
      _ = server.stop()
      let authority = state.appendingPathComponent("ca.pem").path
      let leaf = state.appendingPathComponent("server.pem").path

      let issued = try Self.openssl(["x509", "-in", leaf, "-noout", "-text"]).text
      for field in [
        "Version: 3 (0x2)", "Signature Algorithm: ecdsa-with-SHA256", "Subject: CN = hlspack serve",
        "Public Key Algorithm: id-ecPublicKey", "NIST CURVE: P-256", "X509v3 Basic Constraints: critical",
        "CA:FALSE", "X509v3 Key Usage: critical", "Digital Signature", "TLS Web Server Authentication",
        "DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:fixtures.test, "
          + "DNS:xn--n-nga1b.example, IP Address:10.1.2.3",
        "X509v3 Subject Key Identifier", "X509v3 Authority Key Identifier",
      ] {
        #expect(issued.contains(field), "\(field) in \(issued)")
      }
      let ca = try Self.openssl(["x509", "-in", authority, "-noout", "-text"]).text
      for field in ["CA:TRUE, pathlen:0", "Certificate Sign, CRL Sign", "Subject: O = hlspack, CN = hlspack serve local"] {
        #expect(ca.contains(field), "\(field) in \(ca)")
      }
      // Valid for 397 days: past 396 days from now, not past 398 (Apple refuses more than 825).
      #expect(try Self.openssl(["x509", "-in", leaf, "-noout", "-checkend", String(396 * 86_400)]).status == 0)
      #expect(try Self.openssl(["x509", "-in", leaf, "-noout", "-checkend", String(398 * 86_400)]).status == 1)
      let verified = try Self.openssl(["verify", "-x509_strict", "-purpose", "sslserver", "-CAfile", authority, leaf])
      #expect(verified.status == 0, "\(verified.text) \(verified.stderr)")
    }

    @Test func anAuthorityMadeByTheOpenSSLCommandIsKeptAndAKeyOfAnotherIsRefused() throws {
      let state = try ScratchFolder.make("state").appendingPathComponent("ca")
      try FileManager.default.createDirectory(
        at: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      let key = state.appendingPathComponent("ca-key.pem").path
      let authority = state.appendingPathComponent("ca.pem").path
      // A SEC 1 key ("BEGIN EC PRIVATE KEY"), where hlspack writes PKCS #8.
      #expect(try Self.openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key]).status == 0)
      #expect(chmod(key, 0o600) == 0)
      let made = try Self.openssl([
        "req", "-x509", "-new", "-key", key, "-subj", "/O=elsewhere/CN=kept authority", "-days", "30",
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign", "-out", authority,
      ])
      #expect(made.status == 0, "\(made.stderr)")
      let before = try Data(contentsOf: URL(fileURLWithPath: authority))

      let server = try ServerProcess(
        folder: try ServeFixtures.tree(), arguments: ["--tls", "auto", "--tls-port", "0", "--state", state.path])
      let secure = try Curl.run(
        "https://127.0.0.1:\(try #require(server.tlsPort))/master.m3u8", ["--cacert", authority])
      #expect(secure.status == 200, "\(secure.stderr)")
      _ = server.stop()
      #expect(try Data(contentsOf: URL(fileURLWithPath: authority)) == before)
      let leaf = try Self.openssl(["x509", "-in", state.appendingPathComponent("server.pem").path, "-noout", "-issuer"])
      #expect(leaf.text.contains("O = elsewhere, CN = kept authority"), "\(leaf.text)")

      #expect(try Self.openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key]).status == 0)
      let mismatched = try Command.run(
        try ServerProcess.executable(),
        ["serve", try ServeFixtures.tree().path, "--port", "0", "--tls", "auto", "--tls-port", "0", "--state", state.path])
      #expect(mismatched.status == 2)
      #expect(mismatched.stderr.contains("\(key): unusable certificate or key: not the key of \(authority)"),
        "\(mismatched.stderr)")
    }
  }
}
