import ArgumentParser
import Foundation
import HLSPack
import HLSPackCore

struct RewriteKeysCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rewrite-keys",
    abstract: "Rewrite the key URIs of an existing HLS package (hlspack, ffmpeg, Shaka Packager, Bento4).",
    discussion: """
      Changes only the URI="…" of every EXT-X-KEY and EXT-X-SESSION-KEY in every \
      .m3u8 below PACKAGE_DIR; every other byte and every segment stays as it is. \
      Keys found through PACKAGE_DIR/keys.json or a 16-byte key file inside PACKAGE_DIR are copied \
      to keys/<key id>.key, and keys.json maps every new URI to its key.

      Placeholders: {asset} (package folder name), {rendition} (playlist folder, or \
      file stem at the root), {key_id}, {period} (index of the key in its playlist), \
      {key_file} (key file path relative to the playlist).

      Exit status: 0 rewritten; 1 failed (the message names the playlist or file); \
      2 invalid template or arguments; 64 command-line usage error; 130 interrupted.
      """)

  @Argument(help: ArgumentHelp("The package folder.", valueName: "package-dir"))
  var package: String

  @Option(
    name: .customLong("uri"),
    help: ArgumentHelp(
      "Key URI template, e.g. skd://{key_id}, myapp-key://{asset}/{rendition}, https://keys.example.com/{key_id}, {key_file}.",
      valueName: "template"))
  var template: String

  @Option(
    name: .long, help: ArgumentHelp("Write a rewritten copy here instead of rewriting in place.", valueName: "dir"))
  var output: String?

  @Flag(name: .long, help: "With --output: replace DIR if it exists.")
  var force = false

  func run() throws {
    let parsed: KeyURITemplate
    do {
      parsed = try KeyURITemplate(template)
    } catch {
      printError("--uri \"\(template)\": \(error.description)")
      throw ExitStatus.invalidProfile
    }
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    let rewriter: PackageKeyRewriter
    do {
      rewriter = try PackageKeyRewriter(
        package: URL(fileURLWithPath: package, relativeTo: cwd), template: parsed,
        output: output.map { URL(fileURLWithPath: $0, relativeTo: cwd) }, replace: force)
    } catch {
      printError(error.description)
      throw ExitStatus.invalidProfile
    }
    // Removes the --output staging folder, or the temporaries of an in-place
    // rewrite, if the run is interrupted.
    InterruptCleanup.install()
    let run = Result { try rewriter.run() }
    InterruptCleanup.finishing()
    let summary: PackageKeyRewriter.Summary
    do {
      summary = try run.get()
    } catch let error as PackError {
      printError(error.description)
      throw ExitStatus.assetFailed
    }
    for warning in summary.warnings { printWarning(warning) }
    for path in summary.rewrittenPlaylists {
      print(summary.result.appendingPathComponent(path).path)
    }
  }

}
