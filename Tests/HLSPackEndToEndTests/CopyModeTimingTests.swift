import Foundation
import HLSPackTestSupport
import Testing

/// Copied streams keep their timing: decode times Matroska leaves out,
/// variable frame rates, edit lists, and audio that starts late.
extension CopyModeTests {
  /// Matroska stores no decode times, and FFmpeg guesses them only from the
  /// third packet of a stream with two B-frames on: the first ones are filled in.
  @Test func matroskaWithBFramesIsCopiedPacketForPacket() throws {
    let (result, source, asset) = try encodeMadeSource(
      "bframes.mkv",
      [
        "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=3", "-c:v", "libx264", "-preset", "veryfast",
        "-bf", "2", "-g", "25",
      ])
    let probe = try Command.run(
      "ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=dts", "-of", "csv=p=0", source.path])
    #expect(probe.text.hasPrefix("N/A"), "the source must lack leading decode times: \(probe.text.prefix(40))")
    #expect(result.status == 0, "\(result.stderr)")
    let video = try packetHashes(source.path, stream: 0, filter: ["-bsf:v", "h264_mp4toannexb"])
    let playlist = asset.appendingPathComponent("main/index.m3u8").path
    #expect(try packetHashes(playlist, stream: 0, filter: ["-bsf:v", "filter_units=remove_types=9"]) == video)
    let decode = try Command.run(
      "ffmpeg", ["-v", "error", "-allowed_extensions", "ALL", "-i", playlist, "-f", "null", "-"])
    #expect(decode.status == 0 && decode.stderr.isEmpty, "\(decode.stderr)")
  }

  /// Variable frame rate (every other frame dropped for a second): FRAME-RATE
  /// is the maximum rate (RFC 8216bis §4.4.6.2) and the last segment ends one 40 ms
  /// frame after its last picture, not one average gap.
  @Test func variableFrameRateDeclaresTheMaximumRate() throws {
    let (result, _, asset) = try encodeMadeSource(
      "vfr.mp4",
      [
        "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=3", "-vf",
        "select='lt(t,1)+gte(t,2)+not(mod(n,2))'",
        "-vsync", "vfr", "-c:v", "libx264", "-preset", "veryfast", "-force_key_frames", "expr:gte(t,n_forced)",
      ])
    #expect(result.status == 0, "\(result.stderr)")
    let master = try PlaylistReader(contentsOf: asset.appendingPathComponent("master.m3u8"))
    #expect(master.variants.first?.attributes["FRAME-RATE"] == "25.000")
    let playlist = try PlaylistReader(contentsOf: asset.appendingPathComponent("main/index.m3u8"))
    // The frame at 1 s is dropped, so the second segment opens at 1.04 s.
    #expect(playlist.segments.map(\.duration) == [1.04, 0.96, 1])
  }

  /// Matroska gives every frame of a variable-rate stream one default
  /// duration, wrong for the 40 ms frames before the rate doubles at 2 s. The
  /// mov muxer gives a fragment's last sample its packet's duration and starts
  /// the next fragment after it: each fragment must start at its keyframe's
  /// time in the source, 1 s apart (the second one started 20 ms early).
  @Test func fragmentsStartAtTheirKeyframesTimeWhateverThePacketDurations() throws {
    let (result, _, asset) = try encodeMadeSource(
      "vfr.mkv",
      [
        "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=50:duration=4", "-vf", "select='gte(t,2)+not(mod(n,2))'",
        "-fps_mode", "vfr",
        "-c:v", "libx264", "-preset", "ultrafast", "-bf", "0", "-force_key_frames", "expr:gte(t,n_forced)",
      ],
      container: "fmp4", method: "none")
    try #require(result.status == 0, "\(result.stderr)")
    let folder = asset.appendingPathComponent("main")
    let initSegment = try Data(contentsOf: folder.appendingPathComponent("init.mp4"))
    let trak = try #require(try Box.parse(ArraySlice(initSegment)).first { $0.type == "moov" }?.find(["trak"]))
    let timescale = Double(try trak.mediaTimescale())
    let playlist = try PlaylistReader(contentsOf: folder.appendingPathComponent("index.m3u8"))
    #expect(playlist.segments.count == 4)
    for (index, segment) in playlist.segments.enumerated() {
      let bytes = try Data(contentsOf: folder.appendingPathComponent(segment.uri))
      let moof = try #require(try Box.parse(ArraySlice(bytes)).first { $0.type == "moof" })
      let fragment = try TrackFragment(try #require(try moof.find(["traf"])))
      #expect(
        abs(Double(fragment.baseDecodeTime) / timescale - Double(index)) < 0.001,
        "segment \(index): tfdt \(fragment.baseDecodeTime) / \(timescale)")
    }
  }

  /// `ffmpeg -ss 0.5 -c copy` keeps the GOP from the keyframe before the cut
  /// and writes an edit list that hides its first half second, which FFmpeg
  /// reads as discarded packets before 0. They are copied (TS cannot hide
  /// them) and counted, so the package starts at that keyframe: in fMP4 the
  /// keyframes sat half a second before the times its playlist gave them.
  @Test(arguments: ["ts", "fmp4"])
  func aSourceCutWithAnEditListStartsAtItsFirstKeyframe(container: String) throws {
    let scratch = try ScratchFolder.make("cut-\(container)")
    let whole = scratch.appendingPathComponent("whole.mp4"), cut = scratch.appendingPathComponent("cut.mp4")
    for arguments in [
      [
        "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=4.5", "-f", "lavfi", "-i", "sine=duration=4.5",
        "-c:v", "libx264",
        "-preset", "veryfast", "-bf", "2", "-g", "25", "-c:a", "aac", whole.path,
      ],
      ["-ss", "0.5", "-i", whole.path, "-c", "copy", cut.path],
    ] {
      try Fixtures.ffmpeg(arguments)
    }
    let profile = scratch.appendingPathComponent("copy.json")
    try Data(
      #"{"version": 1, "segment": {"duration": 1, "container": "\#(container)"}, "video": [{"name": "main", "codec": "copy"}], "audio": {"codec": "copy"}, "encryption": {"method": "none"}}"#
        .utf8
    ).write(to: profile)
    let output = scratch.appendingPathComponent("out")
    let run = try Command.run(
      try Fixtures.executable(), ["encode", "--profile", profile.path, "--output", output.path, cut.path])
    try #require(run.status == 0, "\(run.stderr)")
    let playlist = output.appendingPathComponent("cut/main/index.m3u8")
    #expect(try PlaylistReader(contentsOf: playlist).segments.map(\.duration) == [1, 1, 1, 1, 0.52])
    let frames = try Command.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v", "-show_entries", "frame=key_frame,pts_time", "-of", "csv=p=0",
        playlist.path,
      ])
    let keyframes = frames.text.split(separator: "\n").compactMap { line -> Double? in
      let fields = line.split(separator: ",")
      return fields.count >= 2 && fields[0] == "1" ? Double(fields[1]) : nil
    }
    // Every package's first picture: TS at 1 s (its clock starts there), fMP4 at 0.
    let first = container == "ts" ? 1.0 : 0.0
    #expect(keyframes.map { ($0 - first) * 1000 }.map { $0.rounded() } == [0, 1000, 2000, 3000, 4000], "\(keyframes)")
  }

  /// Audio that starts after the first picture keeps its delay in fMP4: its
  /// timestamps count from the first picture and its edit list skips nothing,
  /// so it starts where it does in MPEG-TS, 0.5 s after the video.
  @Test(arguments: ["ts", "fmp4"])
  func lateAudioKeepsItsDelay(container: String) throws {
    let (result, _, asset) = try encodeMadeSource(
      "late-audio-\(container).mp4",
      [
        "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=3", "-itsoffset", "0.5", "-f", "lavfi", "-i",
        "sine=frequency=440:duration=2.5", "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "veryfast", "-g",
        "25",
        "-c:a", "aac",
      ],
      container: container, copyAudio: true, method: "none")
    try #require(result.status == 0, "\(result.stderr)")
    let playlist = asset.appendingPathComponent("main/index.m3u8").path
    let video = try #require(
      Double(
        try ffprobe(playlist, ["-select_streams", "v:0", "-show_entries", "stream=start_time"])["start_time"] ?? ""))
    let audio = try #require(
      Double(
        try ffprobe(playlist, ["-select_streams", "a:0", "-show_entries", "stream=start_time"])["start_time"] ?? ""))
    // The AAC encoder's priming sits before the delayed sound.
    #expect(abs(audio - video - (0.5 - 1024.0 / 44100)) < 0.03, "\(container): video at \(video), audio at \(audio)")
  }

  /// The edit list is written in the track's own timescale, not through
  /// 90 kHz: with a 1 MHz timescale the B-frame delay of 24000/1001 fps
  /// (83417 ticks) would come back as 83422, and the first picture at -5 µs.
  @Test func theEditListIsExactInATimescaleFinerThan90kHz() throws {
    let (result, _, asset) = try encodeMadeSource(
      "fine-timescale.mp4",
      [
        "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=24000/1001:duration=3", "-c:v", "libx264", "-preset",
        "veryfast",
        "-bf", "2", "-g", "24", "-video_track_timescale", "1000000",
      ],
      container: "fmp4", method: "none")
    try #require(result.status == 0, "\(result.stderr)")
    let playlist = asset.appendingPathComponent("main/index.m3u8").path
    #expect(
      try ffprobe(playlist, ["-select_streams", "v:0", "-show_entries", "stream=start_time"])["start_time"]
        == "0.000000")
  }
}
