import Foundation
import HLSPackCore
import HLSPackTestSupport
import Testing

/// Publishing as `hlspack encode` does it, where it could lose data or keys:
/// what `--force` may replace, two runs of one asset, modes under a lax
/// umask, a full disk, and the paths printed on stdout.
@Suite("hlspack publishing")
struct PublishingSafetyTests {
  func hlspack(_ arguments: [String]) throws -> CommandResult {
    try Command.run(try Fixtures.executable(), arguments)
  }

  /// hlspack run by bash after `prelude` (a umask, a limit, a folder to work in).
  func hlspack(after prelude: String, _ arguments: [String]) throws -> CommandResult {
    try Fixtures.hlspack(after: prelude, arguments)
  }

  func contents(_ folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
  }

  /// The issue's case: the input sits in the folder named after its stem,
  /// which `--force` replaced, deleting the input and everything beside it.
  @Test func forceNeverReplacesTheFolderHoldingTheInput() throws {
    let scratch = try ScratchFolder.make()
    let profile = try Fixtures.profile(in: scratch)
    let folder = scratch.appendingPathComponent("t/movie")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let input = folder.appendingPathComponent("movie.mp4")
    try FileManager.default.copyItem(at: try Fixtures.clip(), to: input)
    try Data("mine".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    let run = try hlspack(
      [
        "encode", "--profile", profile.path, "--output", scratch.appendingPathComponent("t").path, "--force",
        input.path,
      ])
    #expect(run.status == 1)
    #expect(run.stderr.contains("\(folder.path): holds \(input.path), which this run reads"), "\(run.stderr)")
    #expect(contents(folder) == ["movie.mp4", "notes.txt"])
    #expect(contents(scratch.appendingPathComponent("t")) == ["movie"])
  }

  /// Two runs of one new asset at once both exited 0: the later publish
  /// swapped the first asset out, and the keys its run reported were lost.
  /// Now one publishes and the other fails, leaving nothing behind.
  @Test func twoRunsOfOneNewAssetPublishItOnce() throws {
    let scratch = try ScratchFolder.make()
    let profile = try Fixtures.profile(in: scratch)
    let output = scratch.appendingPathComponent("out")
    let arguments = ["encode", "--profile", profile.path, "--output", output.path, try Fixtures.clip().path]
    final class Runs: @unchecked Sendable { var results: [Result<CommandResult, Error>] = [] }
    let runs = Runs()
    let lock = NSLock()
    let group = DispatchGroup()
    for _ in 0..<2 {
      group.enter()
      Thread.detachNewThread {
        let result = Result { try Command.run(try Fixtures.executable(), arguments) }
        lock.withLock { runs.results.append(result) }
        group.leave()
      }
    }
    group.wait()
    let results = try runs.results.map { try $0.get() }
    #expect(results.map(\.status).sorted() == [0, 1], "\(results.map(\.stderr))")
    #expect(results.contains { $0.status == 1 && $0.stderr.contains("already exists") }, "\(results.map(\.stderr))")
    #expect(contents(output) == ["clip"], "no staging folder is left")
    // The published asset's keys are those its keys.json and playlists name.
    let asset = output.appendingPathComponent("clip")
    let manifest = try JSONDecoder().decode(
      KeysManifest.self, from: Data(contentsOf: asset.appendingPathComponent("keys.json")))
    #expect(
      Set(manifest.keys.map(\.keyFile)) == Set(contents(asset.appendingPathComponent("keys")).map { "keys/\($0)" }))
  }

  func mode(_ url: URL) -> mode_t {
    var info = stat()
    return stat(url.path, &info) == 0 ? info.st_mode & 0o7777 : 0
  }

  /// With umask 000, keys/ was 0777: any local user could swap key files.
  @Test func keysStayPrivateUnderAnOpenUmask() throws {
    let scratch = try ScratchFolder.make()
    let profile = try Fixtures.profile(in: scratch)
    let output = scratch.appendingPathComponent("out")
    let run = try hlspack(
      after: "umask 000", ["encode", "--profile", profile.path, "--output", output.path, try Fixtures.clip().path])
    #expect(run.status == 0, "\(run.stderr)")
    let asset = output.appendingPathComponent("clip")
    #expect(mode(asset) == 0o777, "the published asset's folders are as the umask gives")
    #expect(mode(asset.appendingPathComponent("high")) == 0o777)
    let keys = asset.appendingPathComponent("keys")
    #expect(mode(keys) == 0o700)
    let files = contents(keys)
    #expect(!files.isEmpty && files.allSatisfy { mode(keys.appendingPathComponent($0)) == 0o600 })
  }

  /// A full disk named the hidden staging file, which was gone by then:
  /// the error names the asset's folder, the file in it and the input.
  func expectAWriteFailureNamesTheAsset(_ run: CommandResult, output: URL, reason: String) throws {
    #expect(run.status == 1)
    let clip = try Fixtures.clip().path
    #expect(run.stderr.contains("hlspack: error: \(output.path)/clip: "), "\(run.stderr)")
    #expect(run.stderr.contains("(\(reason)), while encoding \(clip); nothing was published"), "\(run.stderr)")
    #expect(!run.stderr.contains(".partial-"), "\(run.stderr)")
    #expect(contents(output).isEmpty)
  }

  static let canMountTmpfs: Bool = {
    let probe = FileManager.default.temporaryDirectory.appendingPathComponent(
      "hlspack-tmpfs-probe-\(UUID().uuidString.prefix(8))")
    defer { try? FileManager.default.removeItem(at: probe) }
    guard (try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: false)) != nil,
      (try? Command.run("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe.path]))?.status == 0
    else { return false }
    return (try? Command.run("umount", [probe.path]))?.status == 0
  }()

  @Test(.enabled(if: canMountTmpfs, "needs mount (root)"))
  func aFullDiskNamesTheAssetAndTheInput() throws {
    let scratch = try ScratchFolder.make()
    let profile = try Fixtures.profile(in: scratch)
    let output = scratch.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: false)
    // Room for the keys and the first segments, not for the whole asset.
    #expect(try Command.run("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", output.path]).status == 0)
    defer { _ = try? Command.run("umount", [output.path]) }
    let run = try hlspack(["encode", "--profile", profile.path, "--output", output.path, try Fixtures.clip().path])
    try expectAWriteFailureNamesTheAsset(run, output: output, reason: "No space left on device")
    #expect(run.stderr.contains("/segment_"), "a segment, not the first file: \(run.stderr)")
  }

  /// The same past a file-size limit (`ulimit -f`), which needs no privilege.
  @Test func aFileSizeLimitNamesTheAssetAndTheInput() throws {
    let scratch = try ScratchFolder.make()
    let profile = try Fixtures.profile(in: scratch)
    let output = scratch.appendingPathComponent("out")
    let run = try hlspack(
      after: "ulimit -f 32", ["encode", "--profile", profile.path, "--output", output.path, try Fixtures.clip().path])
    try expectAWriteFailureNamesTheAsset(run, output: output, reason: "File too large")
  }

  /// A newline in a name split the printed path in two, and an escape
  /// sequence reached the terminal; now they are quoted as `ls` quotes them,
  /// and a shell reads the line back as the path.
  @Test func printedPathsAreQuotedWhenTheyNeedIt() throws {
    let scratch = try ScratchFolder.make()
    let profile = try Fixtures.profile(in: scratch, encryption: #"{"method": "none"}"#)
    let output = scratch.appendingPathComponent("out")
    let input = scratch.appendingPathComponent("new\nline \u{1B}[31mred.mp4")
    try FileManager.default.createSymbolicLink(at: input, withDestinationURL: try Fixtures.clip())
    let run = try hlspack(["encode", "--profile", profile.path, "--output", output.path, input.path])
    #expect(run.status == 0, "\(run.stderr)")
    let master = output.appendingPathComponent("new\nline \u{1B}[31mred/master.m3u8").path
    #expect(run.text == ShellQuoting.quote(master) + "\n")
    #expect(!run.stdout.contains(0x1B))
    let line = String(run.text.dropLast())
    let readBack = try Command.run("bash", ["-c", #"eval "p=$1" && printf %s "$p""#, "bash", line])
    #expect(readBack.text == master)
  }

  /// As the profile's `"output": ""` is: it silently meant the current folder.
  @Test func anEmptyOutputIsRefused() throws {
    let scratch = try ScratchFolder.make()
    let profile = try Fixtures.profile(in: scratch)
    let folder = scratch.appendingPathComponent("here")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    let run = try hlspack(
      after: "cd \(ShellQuoting.quote(folder.path))",
      ["encode", "--profile", profile.path, "--output", "", try Fixtures.clip().path])
    #expect(run.status == 2)
    #expect(run.stderr.contains("--output must not be empty"), "\(run.stderr)")
    #expect(contents(folder).isEmpty)
  }

  /// A link at the destination, even one leading nowhere, is refused with or
  /// without `--force` before any work starts (no "start" progress event).
  @Test(arguments: [[], ["--force"]])
  func aLinkAtTheDestinationIsRefusedBeforeAnyWork(extra: [String]) throws {
    let scratch = try ScratchFolder.make()
    let profile = try Fixtures.profile(in: scratch)
    let output = scratch.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: false)
    let link = output.appendingPathComponent("clip")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/nonexistent/clip")
    let run = try hlspack(
      ["encode", "--profile", profile.path, "--output", output.path, "--progress", "json"] + extra + [
        try Fixtures.clip().path
      ])
    #expect(run.status == 1)
    #expect(
      run.stderr.contains("\(link.path): already exists as a symbolic link to /nonexistent/clip"), "\(run.stderr)")
    #expect(!run.text.contains(#""event":"start""#), "\(run.text)")
    #expect(contents(output) == ["clip"])
  }
}
