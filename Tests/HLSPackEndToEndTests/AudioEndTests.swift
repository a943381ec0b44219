import Foundation
import HLSPackTestSupport
import Testing

/// A source whose audio stops before its video (a 2 s tone over 4 s of
/// picture). The audio encoder holds its last frames until it is drained; an
/// independent check found them in the last segment, seconds after their
/// time. They belong with the segment of their time, in every rung.
@Suite struct AudioEndTests {
  @Test(arguments: ["ts", "fmp4"])
  func theLastAudioFramesSitInTheSegmentOfTheirTime(container: String) throws {
    let scratch = try ScratchFolder.make("audio-end-\(container)")
    let source = try Self.source("short.mp4", video: 4, audio: "sine=duration=2", in: scratch)
    let profile = try Fixtures.profile(
      in: scratch, encryption: #"{"method": "none"}"#, container: container,
      rungs: [
        #"{"name": "full", "width": 320, "height": 180, "bitrate": 300000, "preset": "ultrafast"}"#,
        #"{"name": "half", "width": 320, "height": 180, "bitrate": 200000, "fps": 12.5, "preset": "ultrafast"}"#,
      ])
    let output = scratch.appendingPathComponent("out")
    let run = try Command.run(
      try Fixtures.executable(), ["encode", "--profile", profile.path, "--output", output.path, source.path])
    #expect(run.status == 0, "\(run.stderr)")

    for rung in ["full", "half"] {
      let folder = output.appendingPathComponent("short/\(rung)")
      let playlist = try PlaylistReader(contentsOf: folder.appendingPathComponent("index.m3u8"))
      var audioSeconds = 0.0
      for (index, segment) in playlist.segments.enumerated() {
        let packets = try Self.packets(
          of: folder.appendingPathComponent(segment.uri),
          initialization: container == "fmp4" ? folder.appendingPathComponent("init.mp4") : nil)
        let video = packets.filter { $0.video }.map(\.seconds)
        let start = try #require(video.min())
        let end = start + segment.duration
        for audio in packets.filter({ !$0.video }).map(\.seconds) {
          // One AAC frame (21 ms) of slack each way: the first segment starts with the priming frame.
          #expect(
            audio >= start - 0.03 && audio < end + 0.03,
            "\(rung) segment \(index) [\(start), \(end)): audio at \(audio)")
          audioSeconds += 1024.0 / 48000
        }
      }
      // Nothing was lost: about 2 s of tone, give or take the priming and the last frame.
      #expect(abs(audioSeconds - 2) < 0.1, "\(rung): \(audioSeconds) s of audio")
    }
  }

  /// Audio as its own rendition: its playlist is shorter than the video's,
  /// which Apple asks never to be (Apple HLS Authoring Spec 8.3), so the run says so; a
  /// source with audio all along does not draw the warning.
  @Test func aShortAudioRenditionIsWarnedAbout() throws {
    let scratch = try ScratchFolder.make()
    let short = try Self.source("short.mp4", video: 4, audio: "sine=duration=2", in: scratch)
    let profile = try Self.audioListProfile(container: "ts", in: scratch)
    for (input, warned) in [(short.path, true), (try Fixtures.clip().path, false)] {
      let output = scratch.appendingPathComponent("out-\(warned)")
      let run = try Command.run(
        try Fixtures.executable(), ["encode", "--profile", profile.path, "--output", output.path, input])
      #expect(run.status == 0, "\(run.stderr)")
      let warning =
        run.stderr.contains("audio rendition audio/en-aac-2ch lasts 2.0")
        && run.stderr.contains("the video 4.000 s (the source's audio is shorter)")
      #expect(warning == warned, "\(run.stderr)")
      #expect(run.stderr.contains("audio rendition") == warned, "\(run.stderr)")
    }
  }

  /// fMP4 states every sample's duration, and the encoder gives the last
  /// frame only the samples the source had: each EXTINF of an audio rendition
  /// is its segment's trun total (the last one was a whole frame longer in
  /// part, 10 ms here; found by an independent check).
  @Test func fragmentedAudioRenditionsLastAsLongAsTheirSamples() throws {
    let scratch = try ScratchFolder.make()
    let source = try Self.source("odd.mp4", video: 2, audio: "sine=duration=1.99:sample_rate=44100", in: scratch)
    let profile = try Self.audioListProfile(container: "fmp4", in: scratch)
    let output = scratch.appendingPathComponent("out")
    let run = try Command.run(
      try Fixtures.executable(), ["encode", "--profile", profile.path, "--output", output.path, source.path])
    #expect(run.status == 0, "\(run.stderr)")
    let folder = output.appendingPathComponent("odd/audio/en-aac-2ch")
    let playlist = try PlaylistReader(contentsOf: folder.appendingPathComponent("index.m3u8"))
    #expect(playlist.segments.count == 2)
    var lastFrame: UInt32 = 0
    for segment in playlist.segments {
      let bytes = try Data(contentsOf: folder.appendingPathComponent(segment.uri))
      let moof = try #require(try Box.parse(ArraySlice(bytes)).first { $0.type == "moof" })
      let fragment = try TrackFragment(try #require(try moof.find(["traf"])))
      let seconds = Double(fragment.durations.reduce(0, +)) / 48000
      #expect(
        abs(segment.duration - seconds) < 0.001, "\(segment.uri): EXTINF \(segment.duration), samples \(seconds) s")
      lastFrame = fragment.durations.last ?? 0
    }
    #expect(lastFrame < 1024, "the source's audio ends within a frame: \(lastFrame)")
  }

  /// Audio that starts 0.5 s after the picture: its rendition starts with the
  /// video's, silent until the tone (RFC 8216 6.2.4), instead of a first
  /// segment half a second short that put every later one off by as much on
  /// the playlist's timeline (found by an independent check).
  @Test(arguments: ["ts", "fmp4"])
  func lateAudioIsLedInBySilence(container: String) throws {
    let scratch = try ScratchFolder.make("late-audio-\(container)")
    let source = scratch.appendingPathComponent("late.mp4")
    try Fixtures.ffmpeg([
      "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=3", "-itsoffset", "0.5", "-f", "lavfi", "-i",
      "sine=frequency=440:sample_rate=48000:duration=2.5", "-map", "0", "-map", "1", "-c:v", "libx264", "-preset",
      "ultrafast",
      "-g", "25", "-c:a", "aac", source.path,
    ])
    let output = scratch.appendingPathComponent("out")
    let run = try Command.run(
      try Fixtures.executable(),
      [
        "encode", "--profile", try Self.audioListProfile(container: container, in: scratch).path, "--output",
        output.path, source.path,
      ])
    #expect(run.status == 0, "\(run.stderr)")
    let asset = output.appendingPathComponent("late")
    let audio = asset.appendingPathComponent("audio/en-aac-2ch/index.m3u8")
    let durations = try PlaylistReader(contentsOf: audio).segments.map(\.duration)
    // The first segment holds the encoder's priming frame too (21 ms); cuts fall between frames.
    #expect(abs(durations[0] - 1.021) < 0.022, "\(durations)")
    #expect(abs(durations.reduce(0, +) - 3.021) < 0.03, "\(durations)")
    // Still in step: the tone begins 0.5 s after the first picture.
    let audioStart =
      Double(
        try ffprobe(audio.path, ["-select_streams", "a", "-show_entries", "stream=start_time"])["start_time"] ?? "")
      ?? .nan
    let videoStart =
      Double(
        try ffprobe(
          asset.appendingPathComponent("low/index.m3u8").path,
          ["-select_streams", "v", "-show_entries", "stream=start_time"])["start_time"] ?? "") ?? .nan
    let decoded = try Command.run(
      "ffmpeg",
      ["-v", "error", "-allowed_extensions", "ALL", "-i", audio.path, "-f", "s16le", "-ac", "1", "-ar", "48000", "-"])
    let samples = stride(from: 0, to: decoded.stdout.count - 1, by: 2).map {
      Int16(bitPattern: UInt16(decoded.stdout[$0]) | UInt16(decoded.stdout[$0 + 1]) << 8)
    }
    let firstTone = try #require(samples.firstIndex { abs(Int($0)) > 1000 })
    let delay = audioStart + Double(firstTone) / 48000 - videoStart
    #expect(abs(delay - 0.5) < 0.005, "the tone starts \(delay) s after the first picture")
  }

  /// A 320x180 25 fps source of `video` seconds (an IDR every second) with the lavfi `audio` as AAC.
  static func source(_ name: String, video: Int, audio: String, in scratch: URL) throws -> URL {
    let file = scratch.appendingPathComponent(name)
    let made = try Command.run(
      "ffmpeg",
      [
        "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=\(video)", "-f", "lavfi", "-i",
        audio,
        "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-c:a", "aac", file.path,
      ])
    guard made.status == 0 else { throw FixtureError(made.stderr) }
    return file
  }

  /// One rung and the source's first audio track as an alternate audio rendition, 1 s segments.
  static func audioListProfile(container: String, in scratch: URL) throws -> URL {
    let profile = scratch.appendingPathComponent("list-\(container).json")
    try Data(
      #"{"version": 1, "segment": {"duration": 1, "container": "\#(container)"}, "video": [\#(Fixtures.defaultRungs[1])], "audio": [{"name": "Main", "language": "en", "track": 0}]}"#
        .utf8
    ).write(to: profile)
    return profile
  }

  /// Each packet's kind and time, as ffprobe reads the segment (fMP4: after its init segment).
  static func packets(of segment: URL, initialization: URL?) throws -> [(video: Bool, seconds: Double)] {
    var file = segment
    if let initialization {
      file = segment.deletingPathExtension().appendingPathExtension("joined.mp4")
      try (Data(contentsOf: initialization) + Data(contentsOf: segment)).write(to: file)
    }
    let probe = try Command.run(
      "ffprobe", ["-v", "error", "-show_entries", "packet=codec_type,pts_time", "-of", "csv=p=0", file.path])
    #expect(probe.status == 0, "\(probe.stderr)")
    return probe.text.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: ",")
      guard fields.count >= 2, let seconds = Double(fields[1]) else { return nil }
      return (fields[0] == "video", seconds)
    }
  }
}
