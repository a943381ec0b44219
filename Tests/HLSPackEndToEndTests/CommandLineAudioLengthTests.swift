import Foundation
import HLSPackTestSupport
import Testing

/// Audio longer than the video, in the variants and in alternate renditions,
/// ends with the video.
extension CommandLineTests {
  /// 3 s of video with 5 s of English audio.
  func longAudioSource(in scratch: URL) throws -> URL {
    let source = scratch.appendingPathComponent("long-audio.mp4")
    let made = try Command.run(
      "ffmpeg",
      [
        "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=3", "-f", "lavfi", "-i",
        "sine=sample_rate=48000:duration=5",
        "-c:v", "libx264", "-g", "25", "-c:a", "aac", "-metadata:s:a:0", "language=eng", source.path,
      ])
    guard made.status == 0 else { throw FixtureError(made.stderr) }
    return source
  }

  /// Audio that outlasts the video stops with the last picture, so the last
  /// segment holds what its EXTINF says (and BANDWIDTH counts no more).
  @Test func audioOutlastingTheVideoEndsWithIt() throws {
    let source = try longAudioSource(in: try ScratchFolder.make())
    let run = try encode(source.path, profileEncryption: #"{"method": "none"}"#)
    #expect(run.result.status == 0, "\(run.result.stderr)")
    let playlist = run.output.appendingPathComponent("long-audio/high/index.m3u8")
    #expect(try PlaylistReader(contentsOf: playlist).segments.map(\.duration).reduce(0, +) == 3)
    let probe = try Command.run(
      "ffprobe",
      [
        "-v", "error", "-allowed_extensions", "ALL", "-show_entries", "packet=codec_type,pts_time,duration_time", "-of",
        "csv=p=0", playlist.path,
      ])
    var ends: [String: Double] = [:]
    for line in probe.text.split(separator: "\n") {
      let fields = line.split(separator: ",").map(String.init)
      guard fields.count == 3, let pts = Double(fields[1]), let duration = Double(fields[2]) else { continue }
      ends[fields[0]] = max(ends[fields[0]] ?? 0, pts + duration)
    }
    let video = try #require(ends["video"]), audio = try #require(ends["audio"])
    // The last AAC frame may start just before the end of the last picture: 1024 samples.
    #expect(audio <= video + 1024.0 / 48000 + 0.001, "audio ends at \(audio) s, video at \(video) s")
  }

  /// An alternate audio rendition ends with the video too: every playlist
  /// of a VOD presentation covers the same time (RFC 8216bis §6.2.4).
  @Test func alternateAudioOutlastingTheVideoEndsWithIt() throws {
    let scratch = try ScratchFolder.make()
    let source = try longAudioSource(in: scratch)
    let profile = scratch.appendingPathComponent("groups.json")
    try Data(
      """
      {"version": 1, "segment": {"duration": 1}, "video": [\(Fixtures.defaultRungs[1])],
       "audio": [{"name": "English", "language": "en"}], "encryption": {"method": "aes-128"}}
      """.utf8
    ).write(to: profile)
    let output = scratch.appendingPathComponent("out")
    let result = try Command.run(
      try Fixtures.executable(), ["encode", "--profile", profile.path, "--output", output.path, source.path])
    #expect(result.status == 0, "\(result.stderr)")
    let asset = output.appendingPathComponent("long-audio")
    let video = try PlaylistReader(contentsOf: asset.appendingPathComponent("low/index.m3u8")).segments.map(\.duration)
    let audio = try PlaylistReader(contentsOf: asset.appendingPathComponent("audio/en-aac-2ch/index.m3u8")).segments
      .map(\.duration)
    #expect(video.count == 3 && audio.count == 3, "\(video) against \(audio)")
    // AAC priming and frame granularity: within two 1024-sample frames of the video.
    let gap: Double = abs(audio.reduce(0, +) - video.reduce(0, +))
    let twoFrames: Double = 2 * 1024 / 48000
    #expect(gap < twoFrames, "\(video) against \(audio)")
  }
}
