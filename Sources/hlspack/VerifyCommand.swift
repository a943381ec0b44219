import ArgumentParser
import Foundation
import HLSPack
import HLSPackCore
import HLSPackMedia
import HLSPackVerify

struct VerifyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify",
    abstract: "Check an HLS package (from hlspack or any packager): playlists, keys and every segment's bytes.",
    discussion: """
      PACKAGE is an asset folder (master.m3u8 inside), a master playlist or a media \
      playlist, or the http:// or https:// URL of one; over HTTP the report is the \
      same as from the folder, but for key file modes, which only a local folder \
      shows. AES-128 segments are decrypted with the package's own key files (for \
      relative key URIs, as a client fetches them) or with the keys given by --key \
      and --keys for any other key URI. A key URI with no key is reported once \
      (key.unavailable), and each rendition's segments it encrypts once more \
      (segment.not-verifiable), naming the checks not made.

      --sample N is a fast gate: every segment is still looked up and sized (so \
      segment.missing and the BANDWIDTH rules still cover all of them), but only N \
      segments per media playlist, and their I-frame ranges, have their bytes read \
      and decrypted; the report says so. --rules rfc drops the findings of rules \
      whose first source is Apple's HLS Authoring Specification.

      Nothing outside the package folder is read (package.outside-boundary): a URI \
      above it, an absolute path, a symbolic link leading out of it, a redirect to \
      another host. A media playlist's package folder is the nearest of its own \
      folder and the two above that holds a master.m3u8.

      Each failing rule is listed once, must-fix first, with its id, its source \
      (RFC 8216bis section or Apple's HLS Authoring Specification), who fixes it \
      (packager or publisher) and its first places.

      Over HTTP each request must be complete (last body byte) within \
      --resource-timeout seconds (default 120), and any 60 s without a byte \
      ends it sooner: a resource that takes longer is a must-fix finding \
      (segment.unreadable, playlist.unreadable, …), or exit 2 for the playlist \
      verify starts from. The whole run must end within --timeout seconds \
      (default 3600): past it verify stops with exit 2, since its report would \
      be incomplete. --cacert FILE trusts the CA certificates of a PEM file for \
      https in addition to the system's (hlspack serve --tls auto prints its \
      ca.pem). User names and passwords in URLs are printed as "***".

      Exit status: 0 no must-fix rule failed; 1 at least one did; 2 the package \
      cannot be read, or the run's --timeout ran out; 64 command-line usage error.
      """)

  static let mustFixFailed = ExitCode(1)
  static let unreadable = ExitCode(2)

  @Argument(help: ArgumentHelp("Asset folder, master or media playlist, or its http(s) URL.", valueName: "package"))
  var package: String

  @Option(
    name: .customLong("key"),
    help: ArgumentHelp(
      "The key of a key URI the package cannot serve (skd://, an app scheme, https://): 32 hex digits or a 16-byte file. Repeatable.",
      valueName: "uri=file|hex"))
  var keyArguments: [String] = []

  @Option(
    name: .customLong("keys"),
    help: ArgumentHelp(
      "An hlspack keys.json: the keys of the URIs it lists (exported, or its key files, read from its folder).",
      valueName: "keys.json"))
  var keysManifest: String?

  enum RuleSetName: String, ExpressibleByArgument, CaseIterable {
    case apple, rfc
  }

  @Option(
    name: .long,
    help: ArgumentHelp(
      "apple: every rule (the default); rfc: leave out the rules whose first source is Apple's HLS Authoring Specification.",
      valueName: "set"))
  var rules = RuleSetName.apple

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Read the bytes of N segments per media playlist, spread evenly, the first and last among them.",
      valueName: "n"))
  var sample: Int?

  @Flag(name: .long, help: "Print the findings as JSON (sorted: the same package gives the same bytes).")
  var json = false

  @Option(
    name: .customLong("resource-timeout"),
    help: ArgumentHelp(
      "Over HTTP: seconds one playlist, key or segment may take, from request to last byte.",
      valueName: "seconds"))
  var resourceTimeout: Double = HTTPReadOptions().resourceTimeout

  @Option(
    name: .customLong("timeout"),
    help: ArgumentHelp("Over HTTP: seconds the whole run may take; past it, exit 2.", valueName: "seconds"))
  var runTimeout: Double = HTTPReadOptions().runTimeout

  @Option(
    name: .customLong("cacert"),
    help: ArgumentHelp(
      "A PEM file of CA certificates trusted for https in addition to the system store.", valueName: "file"))
  var caFile: String?

  func validate() throws {
    if let sample, sample < 1 { throw ValidationError("--sample must be at least 1") }
    for (name, value) in [("--resource-timeout", resourceTimeout), ("--timeout", runTimeout)]
    where !(value > 0 && value <= 1e9) {
      throw ValidationError("\(name) must be a number of seconds above 0 and at most 1e9")
    }
    if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
      throw ValidationError("--cacert \(caFile): no readable file there")
    }
  }

  /// Keys given one by one replace those of the keys.json; one that cannot be read is a usage error.
  private func providedKeys(_ cwd: URL) throws -> ProvidedKeys {
    var keys = ProvidedKeys()
    do {
      if let keysManifest { try keys.add(manifest: URL(fileURLWithPath: keysManifest, relativeTo: cwd)) }
      for argument in keyArguments { try keys.add(argument: argument) }
    } catch {
      throw ValidationError(error.description)
    }
    return keys
  }

  func run() throws {
    // Decoding a wrong key's garbage makes FFmpeg log; verify reports it itself.
    FFmpegLogging.configure(verbose: false)
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    let keys = try providedKeys(cwd)
    let report: VerifyReport
    do {
      var http = HTTPReadOptions()
      http.resourceTimeout = resourceTimeout
      http.runTimeout = runTimeout
      http.caFile = caFile.map { URL(fileURLWithPath: $0, relativeTo: cwd).path }
      var verifier = try PackageVerifier(opening: package, relativeTo: cwd, http: http)
      verifier.providedKeys = keys
      verifier.rules = rules == .rfc ? .rfc : .apple
      verifier.sample = sample
      verifier.sampleAES = SampleAESDecryptor.self
      report = try verifier.run()
    } catch {
      printError(URLCredentials.masked(error.description))
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
