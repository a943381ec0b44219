import Foundation
import HLSPackTestSupport
import Testing

extension ServeEndToEnd {
  /// `--tls auto --state DIR` keeps the authority's private key: a folder
  /// others can write to, a key others can read, or a path that is no folder
  /// is refused with exit 2 and a message naming what is wrong.
  @Suite("serve: the HTTPS state folder")
  struct TLSStateTests {
    static func serve(state: String, _ extra: [String] = []) throws -> CommandResult {
      let folder = try ServeFixtures.tree()
      return try Command.run(
        try ServerProcess.executable(),
        ["serve", folder.path, "--port", "0", "--tls", "auto", "--tls-port", "0", "--state", state] + extra)
    }

    static func mode(_ path: String) throws -> Int? {
      try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }

    /// A fresh state folder is made 0700 with its keys 0600, and kept.
    @Test func aNewFolderIsPrivateAndAnIDNIsWrittenInPunycode() throws {
      let state = try ScratchFolder.make("state").appendingPathComponent("nested/ca")
      let server = try ServerProcess(
        folder: try ServeFixtures.tree(),
        arguments: ["--tls", "auto", "--tls-port", "0", "--state", state.path, "--tls-name", "ünï.example"])
      #expect(try Self.mode(state.path) == 0o700)
      #expect(try Self.mode(state.appendingPathComponent("ca-key.pem").path) == 0o600)
      let authority = try #require(server.authority)
      let port = try #require(server.tlsPort)
      let named = try Curl.run(
        "https://xn--n-nga1b.example:\(port)/master.m3u8",
        ["--cacert", authority, "--resolve", "xn--n-nga1b.example:\(port):127.0.0.1"])
      #expect(named.status == 200, "\(named.stderr)")
      #expect(server.stderr.contains("ffmpeg -tls_verify 1 -ca_file \(authority) -i https://"), "\(server.stderr)")
    }

    @Test func aNameThatIsNoHostNameIsRefused() throws {
      let state = try ScratchFolder.make("state").appendingPathComponent("ca")
      for name in ["a b.example", "ü/x.example", "fe80::1", ""] {
        let run = try Self.serve(state: state.path, ["--tls-name", name])
        #expect(run.status == 2, "\(name)")
        #expect(run.stderr.contains("--tls-name \(name): not a host name or IPv4 address"), "\(run.stderr)")
      }
    }

    @Test(arguments: [0o777, 0o775, 0o757])
    func aFolderOthersCanWriteToIsRefused(mode: Int) throws {
      let state = try ScratchFolder.make("state")
      #expect(chmod(state.path, mode_t(mode)) == 0)
      let run = try Self.serve(state: state.path)
      #expect(run.status == 2)
      #expect(
        run.stderr.contains("--state \(state.path) is writable by others (mode 0\(String(mode, radix: 8)))"),
        "\(run.stderr)")
      #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent("ca-key.pem").path))
    }

    @Test func aFolderOfAnotherUserIsRefused() throws {
      guard geteuid() == 0 else { return }  // only root can give a folder away
      let state = try ScratchFolder.make("state")
      #expect(chown(state.path, 65534, 65534) == 0)
      let run = try Self.serve(state: state.path)
      #expect(run.status == 2)
      #expect(run.stderr.contains("--state \(state.path) belongs to user 65534"), "\(run.stderr)")
    }

    @Test func aPlantedOrLooseAuthorityKeyIsRefusedByItsOwnName() throws {
      let state = try ScratchFolder.make("state").appendingPathComponent("ca")
      let server = try ServerProcess(
        folder: try ServeFixtures.tree(), arguments: ["--tls", "auto", "--tls-port", "0", "--state", state.path])
      _ = server.stop()
      let key = state.appendingPathComponent("ca-key.pem").path
      #expect(chmod(key, 0o644) == 0)
      let loose = try Self.serve(state: state.path)
      #expect(loose.status == 2)
      #expect(loose.stderr.contains("\(key): unusable certificate or key: a private key open to others (mode 0644)"))
      #expect(loose.stderr.contains("chmod 600 \(key)"), "\(loose.stderr)")

      try Data("not a key\n".utf8).write(to: URL(fileURLWithPath: key))
      #expect(chmod(key, 0o600) == 0)
      let garbage = try Self.serve(state: state.path)
      #expect(garbage.status == 2)
      #expect(garbage.stderr.contains("\(key): unusable certificate or key"), "\(garbage.stderr)")
      #expect(!garbage.stderr.contains("ca.pem:"), "the key is named, not the certificate: \(garbage.stderr)")
    }

    @Test func aStatePathThatIsNoFolderSaysWhatItIs() throws {
      let scratch = try ScratchFolder.make("state")
      let file = scratch.appendingPathComponent("file")
      try Data("x".utf8).write(to: file)
      let onFile = try Self.serve(state: file.path)
      #expect(onFile.status == 2)
      #expect(onFile.stderr.contains("--state \(file.path) is a file, not a folder"), "\(onFile.stderr)")

      let dangling = scratch.appendingPathComponent("dangling")
      try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "/nonexistent/ca")
      let onLink = try Self.serve(state: dangling.path)
      #expect(onLink.status == 2)
      #expect(
        onLink.stderr.contains("--state \(dangling.path) is a symbolic link to /nonexistent/ca, which does not exist"),
        "\(onLink.stderr)")

      let linked = scratch.appendingPathComponent("linked")
      try FileManager.default.createSymbolicLink(atPath: linked.path, withDestinationPath: file.path)
      let onLinkedFile = try Self.serve(state: linked.path)
      #expect(onLinkedFile.stderr.contains("--state \(linked.path) is a file, not a folder"), "\(onLinkedFile.stderr)")
    }
  }
}
