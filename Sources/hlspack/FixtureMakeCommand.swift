import ArgumentParser
import Foundation
import HLSPack
import HLSPackCore

struct FixtureMakeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "make",
    abstract: "Make the fixture matrix: one labelled package per case, fixtures.json and index.html.",
    discussion: """
      Every frame of every rendition carries its rendition, frame number and media \
      time as text and as a QR code; sync events flash the top of the picture with a \
      1 kHz beep. Each fixture is made by the normal pipeline from a generated \
      profile (DIR/profiles/). Fixtures: \(FixtureRequest.knownIDs.joined(separator: ", ")).

      The output is made in a staging folder beside DIR and moved into place when \
      complete. Exit status: 0 made; 1 a fixture failed (nothing was published); \
      2 invalid arguments (nothing was written); 64 command-line usage error.
      """)

  @Option(name: .long, help: ArgumentHelp("The folder to make (new or empty).", valueName: "dir"))
  var output: String

  @Option(name: .long, help: ArgumentHelp("Seconds of content per fixture (1 to 600).", valueName: "seconds"))
  var duration: Double = 20

  @Option(name: .long, help: ArgumentHelp("Text the test keys, IVs and sync events derive from.", valueName: "text"))
  var seed = "hlspack fixtures"

  @Option(name: .long, help: ArgumentHelp("Only these fixtures (comma-separated ids).", valueName: "ids"))
  var only: String?

  @Option(
    name: .long,
    help: ArgumentHelp("Label this footage instead of the synthesised source (no sync events then).", valueName: "file"))
  var source: String?

  @Flag(
    name: .long,
    help: "Keep the synthesised source as DIR/source/labelled.mkv, to package it again with another profile.")
  var keepSource = false

  @Flag(name: .long, help: "Let FFmpeg's own warnings through to stderr.")
  var verbose = false

  func run() throws {
    let logger = startCommand(verbose: verbose)
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    guard !output.isEmpty else {
      printError("--output must not be empty")
      throw ExitStatus.invalidProfile
    }
    var request = FixtureRequest(
      output: URL(fileURLWithPath: output, relativeTo: cwd).standardizedFileURL, duration: duration, seed: seed,
      only: only.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) },
      source: source.map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL })
    request.keepSource = keepSource
    var maker = FixtureMaker(request: request, logger: logger)
    maker.started = { id in StandardError.write("hlspack: fixture \(id)\n") }
    maker.finished = { made, seconds in
      let what = made == "source" ? "labelled source" : "fixture \(made)"
      StandardError.write("hlspack: \(what) made in \(String(format: "%.1f", seconds)) s\n")
    }
    let made = Result { try maker.make() }
    InterruptCleanup.finishing()
    let database: FixtureDatabase
    do {
      database = try made.get()
    } catch let error as FixtureRequestError {
      printError(error.description)
      throw error.isUsage ? ExitStatus.invalidProfile : ExitStatus.assetFailed
    }
    print("\(request.output.path)/fixtures.json: \(database.fixtures.count) fixtures")
  }
}
