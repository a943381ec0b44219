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
      staging folder and moved into place only when complete; a second run making the \
      same asset meanwhile waits for the first, then replaces it only with --force.

      OUTPUT is --output; else, when inputs are named on the command line, ./out in the \
      current folder; else the profile's "output" (relative to the profile), or ./out. \
      Each published master.m3u8 is printed on stdout (relative to the current folder \
      when below it), or named by the "master" field of the "done" event with --progress json.

      Exit status: 0 all assets published; 1 at least one input failed (the others \
      were published); 2 the profile or arguments are invalid (nothing was done); \
      64 command-line usage error; 130 interrupted.
      """)

  @Option(name: .long, help: ArgumentHelp("The profile (JSON) to encode with.", valueName: "file"))
  var profile: String

  @OptionGroup(title: "Packaging options (shared with batch)")
  var packaging: PackagingOptions

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

  @Flag(name: .long, help: "Write the key bytes into keys.json (then mode 0600), for app teams that bundle keys.")
  var exportKeys = false

  @Flag(name: .long, help: "Record every segment's SHA-256 in report.json. Overrides segment.checksums.")
  var checksums = false

  @Argument(help: ArgumentHelp("Source files; they replace the profile's \"inputs\".", valueName: "input"))
  var inputs: [String] = []

  func run() throws {
    // First, before anything starts a thread (see InterruptCleanup.install).
    let logger = startCommand(verbose: packaging.verbose)
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)

    var loaded: Profile
    do {
      loaded = try ProfileLoader.load(contentsOf: URL(fileURLWithPath: profile))
    } catch let error as ProfileError {
      printError("invalid profile: \(error)")
      throw ExitStatus.invalidProfile
    }
    do {
      try packaging.settings(cwd: cwd, seed: seed, exportKeys: exportKeys, checksums: checksums).apply(to: &loaded)
    } catch {
      printError("\(error)")
      throw ExitStatus.invalidProfile
    }
    for warning in loaded.warnings { logger.warning("\(warning)") }
    let named = inputs.map { ProfileLoader.resolve($0, against: cwd) }
    let sources = named.isEmpty ? loaded.inputs : named
    let joined = named.isEmpty ? loaded.joinedInputs : []
    guard !sources.isEmpty || !joined.isEmpty else {
      printError("no input: name files on the command line or in the profile's \"inputs\"")
      throw ExitStatus.invalidProfile
    }
    // The profile's "output" goes with its "inputs": files named here are the
    // user's own, and land where the user is, not beside a shared profile.
    let outputFolder = packaging.outputFolder(profileOutput: named.isEmpty ? loaded.output : nil, cwd: cwd)

    // Past a file-size limit (ulimit -f) a write then fails with EFBIG, which
    // names the file and cleans up, instead of SIGXFSZ killing the process.
    signal(SIGXFSZ, SIG_IGN)
    var packager = Packager(
      profile: loaded, output: outputFolder, replace: packaging.force,
      protecting: [ProfileLoader.resolve(profile, against: cwd)], progress: packaging.reporter(), logger: logger)
    packager.reproducible = reproducible
    packager.verifies = packaging.verify
    let run = Result { try packager.run(inputs: sources, joined: joined) }
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
      } else if packaging.progress != .json {
        // Quoted when needed: a newline in a name must not split the line, nor an escape sequence reach the terminal.
        print(ShellQuoting.quote(DisplayPath.of(outcome.destination.appendingPathComponent("master.m3u8"))))
      }
    }
    if failed > 0 { throw ExitStatus.assetFailed }
  }
}
