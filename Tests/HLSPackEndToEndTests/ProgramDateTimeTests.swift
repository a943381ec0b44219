import Foundation
import HLSPackTestSupport
import Testing

/// `segment.program_date_time`: EXT-X-PROGRAM-DATE-TIME on the first segment
/// and after every discontinuity, the same in every playlist at the same
/// media time (RFC 8216bis §4.4.4.6).
@Suite("Program date-time")
struct ProgramDateTimeTests {
  /// Encodes `input` with two rungs, 1 s segments and `programDateTime` (JSON);
  /// the run and the asset folder.
  static func encode(
    _ input: URL, programDateTime: String, encryption: String = #"{"method": "none"}"#, container: String = "ts"
  ) throws -> (run: CommandResult, asset: URL) {
    let scratch = try ScratchFolder.make("pdt")
    let profile = scratch.appendingPathComponent("profile.json")
    let rungs = Fixtures.defaultRungs.joined(separator: ", ")
    try Data(
      """
      {"version": 1, "segment": {"duration": 1, "container": "\(container)", "program_date_time": \(programDateTime)},
       "video": [\(rungs)], "audio": {"codec": "aac", "bitrate": 96000, "channels": 2, "sample_rate": 48000},
       "encryption": \(encryption)}
      """.utf8
    ).write(to: profile)
    let output = scratch.appendingPathComponent("out")
    let run = try Command.run(
      try Fixtures.executable(), ["encode", "--profile", profile.path, "--output", output.path, input.path])
    return (run, output.appendingPathComponent(input.deletingPathExtension().lastPathComponent))
  }

  /// The EXT-X-PROGRAM-DATE-TIME lines of a playlist, each with the tags
  /// before it back to the previous segment.
  static func dateTimes(_ playlist: URL) throws -> [(index: Int, value: String, afterDiscontinuity: Bool)] {
    let lines = try PlaylistReader(contentsOf: playlist).lines
    var result: [(Int, String, Bool)] = []
    var index = 0
    var discontinuity = false
    for line in lines {
      if line == "#EXT-X-DISCONTINUITY" { discontinuity = true }
      if line.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") {
        result.append((index, String(line.dropFirst(25)), discontinuity))
      }
      if !line.hasPrefix("#") {
        index += 1
        discontinuity = false
      }
    }
    return result
  }

  static func verify(_ asset: URL) throws -> CommandResult {
    try Command.run(try Fixtures.executable(), ["verify", asset.appendingPathComponent("master.m3u8").path])
  }

  /// A clear lead in SAMPLE-AES MPEG-TS puts a discontinuity before segment 2
  /// (the PMT changes): the date-time there is the start plus 2 s in every
  /// media and I-frame playlist; the zone given is written as UTC.
  @Test func firstSegmentAndEveryDiscontinuityInEveryPlaylist() throws {
    let (run, asset) = try Self.encode(
      try Fixtures.clip(), programDateTime: #""2026-03-01T13:00:00.250+01:00""#,
      encryption: #"{"method": "sample-aes", "clear_lead_segments": 2}"#)
    #expect(run.status == 0, "\(run.stderr)")
    for rung in ["high", "low"] {
      for playlist in ["index.m3u8", "iframes.m3u8"] {
        let times = try Self.dateTimes(asset.appendingPathComponent("\(rung)/\(playlist)"))
        #expect(times.map(\.value) == ["2026-03-01T12:00:00.250Z", "2026-03-01T12:00:02.250Z"], "\(rung)/\(playlist)")
        #expect(times.map(\.afterDiscontinuity) == [false, true], "\(rung)/\(playlist)")
        #expect(times.first?.index == 0, "\(rung)/\(playlist)")
      }
    }
    let master = try String(contentsOf: asset.appendingPathComponent("master.m3u8"), encoding: .utf8)
    #expect(!master.contains("PROGRAM-DATE-TIME"))
    let verified = try Self.verify(asset)
    #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
  }

  /// `"source"` takes the container's creation_time (an MP4 mvhd holds whole seconds).
  @Test func sourceTakesTheInputsCreationTime() throws {
    let folder = try ScratchFolder.make("pdt-source")
    let input = folder.appendingPathComponent("dated.mp4")
    try Fixtures.ffmpeg([
      "-i", try Fixtures.clip().path, "-t", "2", "-c", "copy", "-metadata", "creation_time=2024-05-06T07:08:09.123456Z",
      input.path,
    ])
    let (run, asset) = try Self.encode(input, programDateTime: #""source""#, container: "fmp4")
    #expect(run.status == 0, "\(run.stderr)")
    for playlist in ["high/index.m3u8", "low/index.m3u8", "high/iframes.m3u8"] {
      let times = try Self.dateTimes(asset.appendingPathComponent(playlist))
      #expect(times.map(\.value) == ["2024-05-06T07:08:09.000Z"], "\(playlist)")
    }
    let verified = try Self.verify(asset)
    #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
  }

  /// A source without a creation time fails before any work, naming the file and the field; nothing is published.
  @Test func sourceWithoutACreationTimeIsRefused() throws {
    let folder = try ScratchFolder.make("pdt-undated")
    let input = folder.appendingPathComponent("undated.mp4")
    try Fixtures.ffmpeg(["-i", try Fixtures.clip().path, "-t", "1", "-c", "copy", input.path])
    let (run, asset) = try Self.encode(input, programDateTime: #""source""#)
    #expect(run.status != 0)
    #expect(run.stderr.contains("undated.mp4: has no creation time"), "\(run.stderr)")
    #expect(run.stderr.contains(#"segment.program_date_time "source""#), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: asset.path))
  }
}
