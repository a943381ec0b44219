import ArgumentParser
import Foundation
import HLSPackCore

/// The options `encode` and `batch` share, with the checks and defaults
/// both apply, so the two commands speak one vocabulary.
struct PackagingOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Output folder, relative to the current folder (default: ./out there; encode without input arguments uses the profile's \"output\" if it names one).",
      valueName: "dir"))
  var output: String?

  @Flag(
    name: .long,
    help: "Replace assets that already exist in the output folder (batch: make every asset anew, up to date or not).")
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
      "Keep the keys out of the assets: key files, keys.json and key-info files go to DIR/<asset>/ (owner-only), published with the asset. Relative to the current folder; overrides encryption.keys_dir.",
      valueName: "dir"))
  var keysDir: String?

  @Flag(
    name: .long,
    help:
      "Check each asset as `hlspack verify` does (with its new keys) before publishing it; a must-fix finding refuses publication, fails that asset and names the rules."
  )
  var verify = false

  @Flag(name: .long, help: "Let FFmpeg's own warnings through to stderr.")
  var verbose = false

  /// An option the run cannot use (exit 2, as a bad profile).
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// What these options, and the encode-only ones given with them, write into
  /// a profile: the one place both commands get it from (`CommandLineSettings.apply`
  /// writes it, batch once per manifest line). Empty paths are refused first:
  /// "" would silently mean the current folder.
  func settings(cwd: URL, seed: String? = nil, exportKeys: Bool = false, checksums: Bool = false) throws(Failure)
    -> CommandLineSettings
  {
    if output == "" { throw Failure(description: "--output must not be empty") }
    if keysDir == "" { throw Failure(description: "--keys-dir must not be empty") }
    return CommandLineSettings(
      seed: seed, exportKeys: exportKeys, checksums: checksums,
      keysFolder: keysDir.map { ProfileLoader.resolve($0, against: cwd) })
  }

  /// `--output`, else `profileOutput` (encode of the profile's own inputs),
  /// else `out` in the current folder.
  func outputFolder(profileOutput: URL? = nil, cwd: URL) -> URL {
    output.map { ProfileLoader.resolve($0, against: cwd) } ?? profileOutput ?? cwd.appendingPathComponent("out")
  }

  func reporter() -> ProgressReporter { progress.reporter() }
}
