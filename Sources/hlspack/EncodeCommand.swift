import ArgumentParser
import Foundation
import HLSPack
import HLSPackCore
import HLSPackMedia
import Logging

struct EncodeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "encode",
    abstract: "Encode each input into an HLS asset as the profile describes.",
    discussion: """
      Each input becomes OUTPUT/<input file stem>/ with master.m3u8, one folder per \
      rung (index.m3u8 and its segments), keys/ and report.json (keys/ and keys.json \
      in DIR/<input file stem>/ with --keys-dir). The asset is built in a hidden \
      staging folder and moved into place only when complete.

      Exit status: 0 all assets published; 1 at least one input failed (the others \
      were published); 2 the profile or arguments are invalid (nothing was done); \
      64 command-line usage error; 130 interrupted.
      """)

  enum ProgressMode: String, ExpressibleByArgument, CaseIterable {
    case auto, bar, json, none
  }

  @Option(name: .long, help: ArgumentHelp("The profile (JSON) to encode with.", valueName: "file"))
  var profile: String

  @Option(
    name: .long,
    help: ArgumentHelp("Output folder; overrides the profile's \"output\" (default: ./out).", valueName: "dir"))
  var output: String?

  @Flag(name: .long, help: "Replace assets that already exist in the output folder.")
  var force = false

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Progress display: auto (a bar when stderr is a terminal, else nothing), bar, json (one JSON object per line on stdout), none.",
      valueName: "mode"))
  var progress: ProgressMode = .auto

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Derive keys, key ids and IVs from this text and encode bit-exactly: the same input, profile and seed give identical files. Overrides encryption.seed. The derivation is labelled with the asset name (the input's file stem) only, so two sources with the same file name get the same keys and IVs under one seed: use a seed per source.",
      valueName: "text"))
  var seed: String?

  @Flag(
    name: .long,
    help:
      "Encode bit-exactly and write the report without timings: the same input and profile give identical files, keys and IVs aside (they stay random without --seed, which turns this on)."
  )
  var reproducible = false

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Keep the keys out of the assets: key files, keys.json and key-info files go to DIR/<asset>/ (owner-only), published with the asset. Relative to the current folder; overrides encryption.keys_dir.",
      valueName: "dir"))
  var keysDir: String?

  @Flag(name: .long, help: "Write the key bytes into keys.json (then mode 0600), for app teams that bundle keys.")
  var exportKeys = false

  @Flag(name: .long, help: "Record every segment's SHA-256 in report.json. Overrides segment.checksums.")
  var checksums = false

  @Flag(
    name: .long,
    help:
      "Check each asset as `hlspack verify` does (with its new keys) before publishing it; a must-fix finding refuses publication and names the rules."
  )
  var verify = false

  @Flag(name: .long, help: "Let FFmpeg's own warnings through to stderr.")
  var verbose = false

  @Argument(help: ArgumentHelp("Source files; they replace the profile's \"inputs\".", valueName: "input"))
  var inputs: [String] = []

  func run() throws {
    // First, before anything starts a thread (see InterruptCleanup.install).
    let logger = startCommand(verbose: verbose)

    var loaded: Profile
    do {
      loaded = try ProfileLoader.load(contentsOf: URL(fileURLWithPath: profile))
    } catch let error as ProfileError {
      printError("invalid profile: \(error)")
      throw ExitStatus.invalidProfile
    }
    if let seed {
      guard !seed.isEmpty else {
        printError("--seed must not be empty")
        throw ExitStatus.invalidProfile
      }
      loaded.encryption.seed = seed
    }
    if exportKeys { loaded.encryption.exportKeys = true }
    if checksums { loaded.segment.checksums = true }
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    if let keysDir {
      guard !keysDir.isEmpty else {
        printError("--keys-dir must not be empty")
        throw ExitStatus.invalidProfile
      }
      loaded.encryption.keysFolder = ProfileLoader.resolve(keysDir, against: cwd)
      if loaded.encryption.method != .none, let conflict = loaded.encryption.keysFolderConflict {
        printError("--keys-dir \(conflict)")
        throw ExitStatus.invalidProfile
      }
    }
    for warning in loaded.warnings { logger.warning("\(warning)") }
    let sources = inputs.isEmpty ? loaded.inputs : inputs.map { ProfileLoader.resolve($0, against: cwd) }
    guard !sources.isEmpty else {
      printError("no input: name files on the command line or in the profile's \"inputs\"")
      throw ExitStatus.invalidProfile
    }
    // As the profile's "output": "" is refused: it would silently mean the current folder.
    guard output?.isEmpty != true else {
      printError("--output must not be empty")
      throw ExitStatus.invalidProfile
    }
    let outputFolder =
      output.map { ProfileLoader.resolve($0, against: cwd) }
      ?? loaded.output ?? cwd.appendingPathComponent("out")

    // Past a file-size limit (ulimit -f) a write then fails with EFBIG, which
    // names the file and cleans up, instead of SIGXFSZ killing the process.
    signal(SIGXFSZ, SIG_IGN)
    var packager = Packager(
      profile: loaded, output: outputFolder, replace: force, protecting: [ProfileLoader.resolve(profile, against: cwd)],
      progress: reporter(), logger: logger)
    packager.reproducible = reproducible
    packager.verifies = verify
    let run = Result { try packager.run(inputs: sources) }
    InterruptCleanup.finishing()
    let outcomes: [Packager.Outcome]
    do {
      outcomes = try run.get()
    } catch let error as PackError {
      printError(error.description)
      throw ExitStatus.invalidProfile
    }
    var failed = 0
    for outcome in outcomes {
      if let error = outcome.error {
        failed += 1
        printError(error.description)
      } else if progress != .json {
        // Quoted when needed: a newline in a name must not split the line, nor an escape sequence reach the terminal.
        print(ShellQuoting.quote("\(outcome.destination.path)/master.m3u8"))
      }
    }
    if failed > 0 { throw ExitStatus.assetFailed }
  }

  private func reporter() -> ProgressReporter { progress.reporter() }

}
