import ArgumentParser
import Foundation
import HLSPack
import HLSPackCore
import HLSPackMedia
import Logging

struct BatchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "batch",
    abstract: "Package a catalog listed in a manifest: resumable, several assets at once, sharded across machines.",
    discussion: """
      The manifest is JSON Lines (.jsonl: one object per line) or CSV (.csv: a header row). \
      Fields: input (required), asset (default: the input's file stem), profile (default: --profile), \
      and per-asset key_hex / key_env / key_file, key_id, key_uri, seed, subtitles (a path, or paths by \
      track id: "subtitles.<id>" columns in CSV). Paths are relative to the manifest.

      An asset whose provenance.json matches its input, other files, effective profile and hlspack \
      version is skipped without decoding; one whose record differs is made anew and replaces the old \
      one in one step. --shard K/N (or JOB_COMPLETION_INDEX / AWS_BATCH_JOB_ARRAY_INDEX with --shards N \
      or HLSPACK_SHARDS) takes only the assets whose name hashes to shard K. Each run writes \
      OUTPUT/batch-report-K.json.

      Exit status: 0 every asset published or up to date; 1 at least one asset failed (the others were \
      done); 2 the manifest, a profile or the arguments are invalid (nothing was done); 64 usage error; \
      130 interrupted.
      """)

  @Option(name: .long, help: ArgumentHelp("The manifest: .jsonl (JSON Lines) or .csv.", valueName: "file"))
  var manifest: String

  @Option(name: .long, help: ArgumentHelp("The profile of lines that name none.", valueName: "file"))
  var profile: String?

  @Option(
    name: .long, help: ArgumentHelp("Output folder (default: --profile's \"output\", else ./out).", valueName: "dir"))
  var output: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Assets made at once (default: one per usable core when every asset is packaged without re-encoding, else 1).",
      valueName: "n"))
  var jobs: Int?

  @Option(name: .long, help: ArgumentHelp("Only this shard of the manifest, 0 <= K < N.", valueName: "K/N"))
  var shard: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The number of shards, the index coming from JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX.", valueName: "n"))
  var shards: Int?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Keep the keys out of the assets: key files, keys.json and key-info files go to DIR/<asset>/. Overrides encryption.keys_dir.",
      valueName: "dir"))
  var keysDir: String?

  @Flag(name: .long, help: "Make every asset anew, up to date or not.")
  var force = false

  @Option(
    name: .long, help: ArgumentHelp("Progress display: auto, bar, json, none (as for encode).", valueName: "mode"))
  var progress: EncodeCommand.ProgressMode = .auto

  @Flag(
    name: .long,
    help: "Check each asset as `hlspack verify` does before publishing it; a must-fix finding fails that asset.")
  var verify = false

  @Flag(name: .long, help: "Let FFmpeg's own warnings through to stderr.")
  var verbose = false

  func run() throws {
    let logger = startCommand(verbose: verbose)
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    let environment = ProcessInfo.processInfo.environment
    let manifestURL = ProfileLoader.resolve(manifest, against: cwd)

    let plans: [BatchPlan]
    let selected: Shard
    let outputFolder: URL
    do {
      if let jobs, !(1...256).contains(jobs) { throw ValidationFailure("--jobs must be 1 to 256, found \(jobs)") }
      if output == "" { throw ValidationFailure("--output must not be empty") }
      selected = try Shard.resolve(option: shard, count: shards, environment: environment)
      let defaultProfile = profile.map { ProfileLoader.resolve($0, against: cwd) }
      let defaultOutput = try defaultProfile.flatMap {
        try ProfileLoader.load(contentsOf: $0, environment: environment).output
      }
      outputFolder =
        output.map { ProfileLoader.resolve($0, against: cwd) } ?? defaultOutput ?? cwd.appendingPathComponent("out")
      let entries = try BatchManifest.load(contentsOf: manifestURL)
      if keysDir == "" { throw ValidationFailure("--keys-dir must not be empty") }
      plans = try BatchPlan.make(
        entries: entries, manifest: manifestURL.path, defaultProfile: defaultProfile, output: outputFolder,
        keysFolder: keysDir.map { ProfileLoader.resolve($0, against: cwd) }, environment: environment)
    } catch {
      printError("\(error)")
      throw ExitStatus.invalidProfile
    }
    let mine = plans.filter { selected.contains(asset: $0.entry.asset) }
    let cores = UsableCores.count
    var runner = BatchRunner(
      plans: mine, jobs: jobs ?? BatchRunner.defaultJobs(for: mine, cores: cores), force: force,
      progress: progress.reporter(), logger: logger, cores: cores)
    runner.verifies = verify
    let started = Date()
    signal(SIGXFSZ, SIG_IGN)
    let outcomes = runner.run()
    InterruptCleanup.finishing()
    let report = BatchReport(
      manifest: manifestURL.path, shard: selected,
      jobs: runner.jobs, seconds: Date().timeIntervalSince(started), assets: outcomes)
    do {
      try report.write(into: outputFolder, shard: selected)
    } catch {
      printError("\(error)")
      throw ExitStatus.assetFailed
    }
    for outcome in outcomes where outcome.status == .failed {
      printError("\(outcome.asset): \(outcome.error ?? "failed")")
    }
    if progress != .json {
      print(
        "\(report.published) published, \(report.skipped) up to date, \(report.failed) failed: \(outputFolder.appendingPathComponent(BatchReport.fileName(for: selected)).path)"
      )
    }
    if report.failed > 0 { throw ExitStatus.assetFailed }
  }

  private struct ValidationFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

}
