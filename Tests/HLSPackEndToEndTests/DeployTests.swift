import Foundation
import HLSPackTestSupport
import Testing

/// The files that run `hlspack batch` on engines and get its packages to
/// object storage: the Kubernetes and AWS Batch files pass the engines' own
/// schemas offline, and deploy/upload sends a batch to a real S3-compatible
/// server on 127.0.0.1 (`rclone serve s3`) with playlists last and every
/// object checked (docs/batch.md).
@Suite("Deploy files and upload")
struct DeployTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  /// Where scripts/bootstrap puts the Python tools (kubernetes-validate, botocore, rclone).
  static let tools =
    ProcessInfo.processInfo.environment["HLSPACK_TOOLS"]
    ?? (ProcessInfo.processInfo.environment["XDG_DATA_HOME"] ?? (NSHomeDirectory() + "/.local/share"))
    + "/hlspack/tools"

  static var environment: [String: String] {
    var env = ProcessInfo.processInfo.environment
    env["PATH"] = "\(tools)/bin:" + (env["PATH"] ?? "/usr/bin:/bin")
    return env
  }

  @Test func kubernetesAndAWSBatchFilesPassTheOfflineValidators() throws {
    let run = try Command.run(
      Self.root.appendingPathComponent("deploy/validate").path, [], environment: Self.environment)
    #expect(run.status == 0, "\(run.stderr)")
    let output = run.text + run.stderr
    for resource in [
      "job/hlspack-catalog", "persistentvolumeclaim/hlspack-catalog", "persistentvolumeclaim/hlspack-keys",
    ] {
      #expect(output.contains("passed for resource \(resource) against version 1.33"), "\(output)")
    }
    #expect(output.contains("valid RegisterJobDefinition request"))
    #expect(output.contains("valid SubmitJob request"))
  }

  /// `rclone serve s3` on a free loopback port, stopped when the test ends.
  final class S3Server {
    let process = Process()
    let port: Int
    let data: URL

    init(in folder: URL) throws {
      data = folder.appendingPathComponent("s3")
      try FileManager.default.createDirectory(
        at: data.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
      port = Int.random(in: 20000...60000)
      process.executableURL = URL(fileURLWithPath: try Command.which("rclone", path: DeployTests.environment["PATH"]))
      process.arguments = [
        "serve", "s3", "--addr", "127.0.0.1:\(port)", "--auth-key", "hlspacktestkey1,hlspack-test-secret-1", data.path,
      ]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      // Ready once it answers on its port.
      for _ in 0..<100 {
        if try Command.run("rclone", ["lsd", "s3:"], environment: environment).status == 0 { return }
        usleep(100_000)
      }
      throw FixtureError("rclone serve s3 did not start on port \(port)")
    }

    /// An rclone remote named "s3" for this server, in the environment.
    var environment: [String: String] {
      DeployTests.environment.merging([
        "RCLONE_CONFIG_S3_TYPE": "s3", "RCLONE_CONFIG_S3_PROVIDER": "Rclone", "RCLONE_CONFIG_S3_ENV_AUTH": "false",
        "RCLONE_CONFIG_S3_ENDPOINT": "http://127.0.0.1:\(port)", "RCLONE_CONFIG_S3_ACCESS_KEY_ID": "hlspacktestkey1",
        "RCLONE_CONFIG_S3_SECRET_ACCESS_KEY": "hlspack-test-secret-1",
      ]) { $1 }
    }

    deinit {
      process.terminate()
      process.waitUntilExit()
    }
  }

  @Test func uploadSendsSegmentsFirstPlaylistsLastAndTheBucketMatches() throws {
    let folder = try ScratchFolder.make()
    for name in ["one", "two"] {
      try FileManager.default.copyItem(at: try Fixtures.clip(), to: folder.appendingPathComponent("\(name).mp4"))
    }
    let manifest = folder.appendingPathComponent("catalog.csv")
    try Data("input,asset\none.mp4,\ntwo.mp4,second\n".utf8).write(to: manifest)
    let profile = folder.appendingPathComponent("copy.json")
    try Data(
      #"{"version": 1, "segment": {"duration": 2, "checksums": true}, "video": [{"name": "src", "codec": "copy"}], "audio": {"codec": "copy"}, "encryption": {"method": "aes-128", "key_uri": "https://keys.example.com/{key_id}"}}"#
        .utf8
    ).write(to: profile)
    let output = folder.appendingPathComponent("out")
    let keys = folder.appendingPathComponent("keys")
    let batch = try Command.run(
      try Fixtures.executable(),
      [
        "batch", "--manifest", manifest.path, "--profile", profile.path, "--output", output.path, "--keys-dir",
        keys.path,
      ])
    #expect(batch.status == 0, "\(batch.stderr)")
    let keyFiles = (FileManager.default.enumerator(atPath: keys.path)?.allObjects as? [String] ?? []).filter {
      $0.hasSuffix(".key")
    }
    #expect(keyFiles.count == 2, "one key per asset, in the keys folder: \(keyFiles)")

    let server = try S3Server(in: folder)
    var environment = server.environment
    environment["RCLONE_VERBOSE"] = "1"
    let upload = try Command.run(
      Self.root.appendingPathComponent("deploy/upload").path, [output.path, "s3:fixtures/catalog"],
      environment: environment)
    #expect(upload.status == 0, "\(upload.stderr)")
    #expect(upload.text.contains("uploaded and checked"), "\(upload.text)")

    // The order the objects arrived in, from rclone's log.
    let copied = upload.stderr.split(separator: "\n").compactMap { line -> String? in
      guard line.contains(": Copied") else { return nil }
      return line.components(separatedBy: "INFO  : ").last?.components(separatedBy: ": Copied").first
    }
    let firstPlaylist = try #require(copied.firstIndex { $0.hasSuffix(".m3u8") })
    #expect(copied[..<firstPlaylist].contains { $0.hasSuffix(".ts") })
    #expect(!copied[firstPlaylist...].contains { !$0.hasSuffix(".m3u8") }, "\(copied)")
    #expect(copied.suffix(2).allSatisfy { $0.hasSuffix("/master.m3u8") }, "\(copied)")

    // What the bucket holds is the output, byte for byte, without batch reports.
    let back = folder.appendingPathComponent("back")
    #expect(
      try Command.run("rclone", ["copy", "s3:fixtures/catalog", back.path], environment: server.environment).status == 0
    )
    let diff = try Command.run("diff", ["-r", "-x", "batch-report-*", output.path, back.path])
    #expect(diff.status == 0, "\(diff.text)")
    #expect(!FileManager.default.fileExists(atPath: back.appendingPathComponent("batch-report-0.json").path))
    let inBucket = FileManager.default.enumerator(atPath: back.path)?.allObjects as? [String] ?? []
    #expect(
      !inBucket.contains { $0.hasSuffix(".key") || $0.hasSuffix("keys.json") }, "keys reached the bucket: \(inBucket)")
    #expect(inBucket.contains("second/src/segment_00000.ts"))
  }

  /// Before, deploy/upload looked for rclone on PATH only, so the rclone
  /// scripts/bootstrap installs (in its tool folder) was not found: "rclone
  /// is not installed", exit 2.
  @Test func uploadFindsTheRcloneBootstrapInstalled() throws {
    let folder = try ScratchFolder.make()
    try FileManager.default.copyItem(at: try Fixtures.clip(), to: folder.appendingPathComponent("one.mp4"))
    let profile = folder.appendingPathComponent("copy.json")
    try Data(
      #"{"version": 1, "segment": {"duration": 2}, "video": [{"name": "src", "codec": "copy"}], "audio": {"codec": "copy"}}"#
        .utf8
    ).write(to: profile)
    let output = folder.appendingPathComponent("out")
    let made = try Command.run(
      try Fixtures.executable(),
      ["encode", "--profile", profile.path, "--output", output.path, folder.appendingPathComponent("one.mp4").path])
    #expect(made.status == 0, "\(made.stderr)")
    let server = try S3Server(in: folder)
    var environment = server.environment
    // Nothing of the tool folder on PATH: only HLSPACK_TOOLS says where it is.
    environment["PATH"] = "/usr/local/bin:/usr/bin:/bin"
    environment["HLSPACK_TOOLS"] = Self.tools
    let upload = try Command.run(
      Self.root.appendingPathComponent("deploy/upload").path, [output.path, "s3:fixtures/one"],
      environment: environment)
    #expect(upload.status == 0, "\(upload.stderr)")
    #expect(upload.text.contains("uploaded and checked"), "\(upload.text)")
  }
}
