import ArgumentParser
import Foundation
import HLSPack
import HLSPackCore
import HLSPackMedia

struct VerifyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify",
    abstract: "Check an HLS package (from hlspack or any packager): playlists, keys and every segment's bytes.",
    discussion: """
      PACKAGE is an asset folder (master.m3u8 inside), a master playlist or a media \
      playlist. AES-128 segments are decrypted with the package's own key files.

      Each failing rule is listed once, must-fix first, with its id, its source \
      (RFC 8216bis section or Apple's HLS Authoring Specification), who fixes it \
      (packager or publisher) and its first places.

      Exit status: 0 no must-fix rule failed; 1 at least one did; 2 the package \
      cannot be read; 64 command-line usage error.
      """)

  static let mustFixFailed = ExitCode(1)
  static let unreadable = ExitCode(2)

  @Argument(help: ArgumentHelp("Asset folder, master playlist or media playlist.", valueName: "package"))
  var package: String

  @Flag(name: .long, help: "Print the findings as JSON (sorted: the same package gives the same bytes).")
  var json = false

  func run() throws {
    // Decoding a wrong key's garbage makes FFmpeg log; verify reports it itself.
    FFmpegLogging.configure(verbose: false)
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    let report: VerifyReport
    do {
      report = try PackageVerifier(package: URL(fileURLWithPath: package, relativeTo: cwd).standardizedFileURL).run()
    } catch {
      printError(error.description)
      throw Self.unreadable
    }
    if json {
      FileHandle.standardOutput.write(try report.json())
    } else {
      FileHandle.standardOutput.write(Data(report.humanText.utf8))
    }
    if report.hasMustFix { throw Self.mustFixFailed }
  }
}
