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
      or HLSPACK_SHARDS) takes only the assets whose name hashes to shard K.

      OUTPUT is --output, else ./out in the current folder (a profile's "output" is not used: \
      the inputs come from the manifest). Each run writes OUTPUT/batch-report-K.json \
      (batch-report-K-<pid>.json while another run of shard K writes into OUTPUT), prints each \
      published master.m3u8 (relative to the current folder when below it) and a summary line \
      naming the report. An asset another run is making at the same time fails in this run, \
      named, and is left to that run.

      Exit status: 0 every asset published or up to date; 1 at least one asset failed (the others were \
      done); 2 the manifest, a profile or the arguments are invalid (nothing was done); 64 usage error; \
      130 interrupted.
      """)

  @Option(name: .long, help: ArgumentHelp("The manifest: .jsonl (JSON Lines) or .csv.", valueName: "file"))
  var manifest: String

  @Option(name: .long, help: ArgumentHelp("The profile of lines that name none.", valueName: "file"))
  var profile: String?

  @OptionGroup(title: "Packaging options (shared with encode)")
  var packaging: PackagingOptions

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

  func run() throws {
    let logger = startCommand(verbose: packaging.verbose)
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    let environment = ProcessInfo.processInfo.environment
    let manifestURL = ProfileLoader.resolve(manifest, against: cwd)

    let plans: [BatchPlan]
    let selected: Shard
    // The inputs come from the manifest, never from a profile: the assets go
    // where the user runs, as encode's do for inputs named on its command line.
    let outputFolder = packaging.outputFolder(cwd: cwd)
    do {
      if let jobs, !(1...256).contains(jobs) { throw ValidationFailure("--jobs must be 1 to 256, found \(jobs)") }
      let settings = try packaging.settings(cwd: cwd)
      selected = try Shard.resolve(option: shard, count: shards, environment: environment)
      let entries = try BatchManifest.load(contentsOf: manifestURL)
      plans = try BatchPlan.make(
        entries: entries, manifest: manifestURL.path, defaultProfile: profile.map { ProfileLoader.resolve($0, against: cwd) },
        output: outputFolder, settings: settings, environment: environment)
    } catch {
      printError("\(error)")
      throw ExitStatus.invalidProfile
    }
    let mine = plans.filter { selected.contains(asset: $0.entry.asset) }
    let reportFile: (file: URL, lock: FileLock?)
    do {
      reportFile = try BatchReport.claimFile(in: outputFolder, shard: selected)
    } catch {
      printError("\(error)")
      throw ExitStatus.assetFailed
    }
    defer { reportFile.lock?.release() }
    let cores = UsableCores.count
    var runner = BatchRunner(
      plans: mine, jobs: jobs ?? BatchRunner.defaultJobs(for: mine, cores: cores), force: packaging.force,
      progress: packaging.reporter(), logger: logger, cores: cores)
    runner.verifies = packaging.verify
    runner.startedAt = FileSystemClock.now(in: outputFolder)
    runner.anotherRunActive = reportFile.lock == nil
    let started = Date()
    signal(SIGXFSZ, SIG_IGN)
    let outcomes = runner.run()
    InterruptCleanup.finishing()
    let report = BatchReport(
      manifest: manifestURL.path, shard: selected,
      jobs: runner.jobs, seconds: Date().timeIntervalSince(started), assets: outcomes)
    do {
      try report.write(to: reportFile.file)
    } catch {
      printError("\(error)")
      throw ExitStatus.assetFailed
    }
    for outcome in outcomes where outcome.status == .failed {
      printError("\(outcome.asset): \(outcome.error ?? "failed")")
    }
    if packaging.progress != .json {
      // Quoted when needed, as encode prints them: a name cannot split a line or send an escape sequence.
      for outcome in outcomes where outcome.status == .published {
        print(ShellQuoting.quote(DisplayPath.of(URL(fileURLWithPath: outcome.output).appendingPathComponent("master.m3u8"))))
      }
      print(
        "\(report.published) published, \(report.skipped) up to date, \(report.failed) failed: \(ShellQuoting.quote(DisplayPath.of(reportFile.file)))"
      )
    }
    if report.failed > 0 { throw ExitStatus.assetFailed }
  }

  private struct ValidationFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

}
