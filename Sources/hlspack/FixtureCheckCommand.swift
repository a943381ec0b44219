import ArgumentParser
import Foundation
import HLSPackCore
import HLSPackMedia

struct FixtureCheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Read the labels of a recording of a player showing a fixture: frames missed or held, renditions, A/V offset.",
    discussion: """
      RECORDING is any file FFmpeg decodes (a screen capture, a camera recording, \
      a player's decoded output). Exit status: 0 measured; 1 no QR label could be \
      read; 2 the file cannot be read as media; 64 command-line usage error.
      """)

  @Argument(help: ArgumentHelp("The recording.", valueName: "recording"))
  var recording: String

  @Flag(name: .long, help: "Print the report as JSON.")
  var json = false

  func run() throws {
    _ = startCommand(verbose: false)
    let observations: RecordingObservations
    do {
      observations = try RecordingReader.read(path: recording)
    } catch let error as PackError {
      printError(error.description)
      throw ExitCode(2)
    }
    var flashes: [Double] = []
    var previousFlash = false
    for picture in observations.pictures {
      if picture.flash, !previousFlash { flashes.append(picture.seconds) }
      previousFlash = picture.flash
    }
    let report = PlaybackReport(
      labels: observations.pictures.map(\.label), flashes: flashes, beeps: observations.beepOnsets)
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      print(String(decoding: try encoder.encode(report), as: UTF8.self))
    } else {
      print(Self.text(report))
    }
    guard report.labelledPictures > 0 else {
      printError("\(recording): no hlspack label (HLSPACK/1 QR code) could be read in \(report.pictures) pictures")
      throw ExitCode(1)
    }
  }

  static func text(_ report: PlaybackReport) -> String {
    let list = { (numbers: [Int]) in numbers.isEmpty ? "none" : numbers.map(String.init).joined(separator: ", ") }
    var lines = [
      "pictures: \(report.pictures) (\(report.labelledPictures) with a readable label)",
      "frames seen: \(report.framesSeen)" + (report.firstFrame.map { " (\($0) to \(report.lastFrame ?? $0))" } ?? ""),
      "missing frames: \(list(report.missingFrames))",
      "repeated frames: \(list(report.repeatedFrames))",
      "renditions: \(report.renditions.isEmpty ? "none" : report.renditions.joined(separator: ", "))",
    ]
    for change in report.switches { lines.append("switch at frame \(change.frame): \(change.from) -> \(change.to)") }
    lines.append(
      "av offset: "
        + (report.avOffsetMs.map { String(format: "%.1f ms over %d sync events", $0, report.syncEventsMeasured) }
          ?? "not measured (no flash with a beep)"))
    return lines.joined(separator: "\n")
  }
}
