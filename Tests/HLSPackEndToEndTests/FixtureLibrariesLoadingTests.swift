import Foundation
import HLSPackTestSupport
import Testing

/// libavfilter, libqrencode and libzbar serve `hlspack fixture` only, which
/// opens them when it needs them: every other command runs without the
/// dynamic loader mapping them or the libraries only they bring.
@Suite("Fixture libraries are not loaded by other commands")
struct FixtureLibrariesLoadingTests {
  static let fixtureOnly = ["libavfilter.so", "libqrencode.so", "libzbar.so", "libflite", "libv4l2.so"]

  /// The files glibc's dynamic loader loads for the command, as LD_DEBUG=files
  /// names them on standard error (`file=NAME [0];  needed by …`).
  static func loadedFiles(_ arguments: [String]) throws -> [String] {
    var environment = ProcessInfo.processInfo.environment
    environment["LD_DEBUG"] = "files"
    let run = try Command.run(try Fixtures.executable(), arguments, environment: environment)
    #expect(run.status == 0, "\(arguments): \(run.stderr.suffix(2000))")
    return run.stderr.split(separator: "\n").compactMap { line in
      guard let start = line.range(of: "file=") else { return nil }
      return String(line[start.upperBound...].prefix { $0 != " " })
    }
  }

  @Test func versionLoadsNone() throws {
    let files = try Self.loadedFiles(["--version"])
    // The trace works: the linked FFmpeg libraries are in it.
    #expect(files.contains { $0.hasPrefix("libavformat.so") })
    #expect(files.filter { file in Self.fixtureOnly.contains { file.hasPrefix($0) } } == [])
  }

  @Test func encodeLoadsNone() throws {
    let scratch = try ScratchFolder.make("fixture-libraries")
    let profile = scratch.appendingPathComponent("one-rung.json")
    try Data(
      #"{"version": 1, "segment": {"duration": 2}, "video": [{"name": "low", "width": 320, "height": 180, "bitrate": 300000, "preset": "ultrafast"}]}"#
        .utf8
    ).write(to: profile)
    let files = try Self.loadedFiles([
      "encode", "--profile", profile.path, "--output", scratch.appendingPathComponent("out").path, "--progress", "none",
      try Fixtures.clip().path,
    ])
    #expect(files.contains { $0.hasPrefix("libavcodec.so") })
    #expect(files.filter { file in Self.fixtureOnly.contains { file.hasPrefix($0) } } == [])
  }
}
