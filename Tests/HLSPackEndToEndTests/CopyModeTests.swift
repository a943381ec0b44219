import Foundation
import HLSPackTestSupport
import Testing

/// Packaging pre-encoded sources as they are: packets unchanged, cuts at the
/// sources' keyframes, and clear refusals when the sources cannot make a
/// conformant ladder.
@Suite("Packaging without re-encoding")
struct CopyModeTests {
  /// A second pre-encoded rendition with the clip's 1 s GOPs, length and audio.
  static func lowSource(
    in folder: URL, keyframes: String? = nil, seconds: Double = 4, audio: Bool = true, audioCodec: String = "aac"
  ) throws -> URL {
    let url = folder.appendingPathComponent("low.mp4")
    var arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=\(seconds)"]
    if audio { arguments += ["-f", "lavfi", "-i", "sine=sample_rate=48000:duration=\(seconds)", "-c:a", audioCodec] }
    arguments += ["-c:v", "libx264", "-preset", "ultrafast", "-sc_threshold", "0"]
    arguments += keyframes.map { ["-g", "1000", "-force_key_frames", $0] } ?? ["-g", "25"]
    let result = try Command.run("ffmpeg", arguments + [url.path])
    guard result.status == 0 else { throw FixtureError(result.stderr) }
    return url
  }

  /// A nearly lossless 720p source (several MB a second), so segments span many write parts.
  static func heavySource(in folder: URL, seconds: Int, gop: Int, audio: Bool) throws -> URL {
    let url = folder.appendingPathComponent("heavy.mp4")
    var arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=25:duration=\(seconds)"]
    if audio { arguments += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)"] }
    arguments += ["-c:v", "libx264", "-preset", "ultrafast", "-qp", "2", "-g", "\(gop)", "-sc_threshold", "0"]
    if audio { arguments += ["-c:a", "aac", "-b:a", "128k"] }
    let result = try Command.run("ffmpeg", arguments + [url.path])
    guard result.status == 0 else { throw FixtureError(result.stderr) }
    return url
  }

  /// The MD5 of every decoded video frame, as `ffmpeg -f framemd5` reports them.
  func videoFrameHashes(_ path: String) throws -> [String] {
    let hls = path.hasSuffix(".m3u8") ? ["-allowed_extensions", "ALL"] : []
    let run = try Command.run("ffmpeg", ["-v", "error"] + hls + ["-i", path, "-map", "0:v", "-f", "framemd5", "-"])
    return run.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
      String($0.split(separator: ",").last ?? "")
    }
  }

  func encode(container: String, low: URL, encryption: String = #"{"method": "aes-128"}"#) throws -> CommandResult {
    let scratch = low.deletingLastPathComponent()
    let profile = scratch.appendingPathComponent("copy-\(container).json")
    try Data(
      """
      {"version": 1, "segment": {"duration": 1, "container": "\(container)"},
       "video": [{"name": "main", "codec": "copy"}, {"name": "low", "codec": "copy", "source": "low.mp4"}],
       "audio": {"codec": "copy"}, "encryption": \(encryption)}
      """.utf8
    ).write(to: profile)
    return try Command.run(
      try Fixtures.executable(),
      [
        "encode", "--profile", profile.path, "--output", scratch.appendingPathComponent("out-\(container)").path,
        try Fixtures.clip().path,
      ])
  }

  /// Per-packet (stream, size, MD5) of one stream, as `ffmpeg -c copy -f framemd5` reports them.
  func packetHashes(_ path: String, stream: Int, filter: [String] = []) throws -> [String] {
    let hls = path.hasSuffix(".m3u8") ? ["-allowed_extensions", "ALL"] : []
    let result = try Command.run(
      "ffmpeg",
      ["-v", "error"] + hls + ["-i", path, "-map", "0:\(stream)", "-c", "copy"] + filter + ["-f", "framemd5", "-"])
    #expect(result.status == 0, "\(result.stderr)")
    return result.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
      let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      return "\(fields[0]) \(fields[4]) \(fields[5])"
    }
  }

  @Test(arguments: ["fmp4", "ts"])
  func packetsAreCarriedUnchanged(container: String) throws {
    let scratch = try ScratchFolder.make()
    let result = try encode(container: container, low: try Self.lowSource(in: scratch))
    #expect(result.status == 0, "\(result.stderr)")
    let playlist = scratch.appendingPathComponent("out-\(container)/clip/main/index.m3u8").path
    let source = try Fixtures.clip().path
    // TS carries H.264 as Annex B and the muxer adds access unit delimiters (NAL type 9):
    // compare like with like, nothing more.
    let sourceVideo = container == "ts" ? ["-bsf:v", "h264_mp4toannexb"] : []
    let outputVideo = container == "ts" ? ["-bsf:v", "filter_units=remove_types=9"] : []
    let outputAudio = container == "ts" ? ["-bsf:a", "aac_adtstoasc"] : []
    let video = try packetHashes(source, stream: 0, filter: sourceVideo)
    #expect(video.count == Fixtures.clipFrames)
    #expect(try packetHashes(playlist, stream: 0, filter: outputVideo) == video)
    #expect(try packetHashes(playlist, stream: 1, filter: outputAudio) == (try packetHashes(source, stream: 1)))
    let decode = try Command.run(
      "ffmpeg", ["-v", "error", "-allowed_extensions", "ALL", "-i", playlist, "-f", "null", "-"])
    #expect(decode.status == 0 && decode.stderr.isEmpty)
  }

  /// A rung whose own source SAMPLE-AES in TS cannot take (HEVC) is named
  /// with that source, not with the asset's input (found by an independent check).
  @Test func aSourceSampleAESCannotTakeIsNamedWithItsRendition() throws {
    let scratch = try ScratchFolder.make()
    let hevc = scratch.appendingPathComponent("hevc.mp4")
    let made = try Command.run("ffmpeg", ["-v", "error"] + Self.tenBitHEVC(transfer: "bt709") + [hevc.path])
    #expect(made.status == 0, "\(made.stderr)")
    let profile = scratch.appendingPathComponent("copy.json")
    try Data(
      #"{"version": 1, "segment": {"duration": 1}, "video": [{"name": "main", "codec": "copy"}, {"name": "hevc", "codec": "copy", "source": "hevc.mp4"}], "encryption": {"method": "sample-aes"}}"#
        .utf8
    ).write(to: profile)
    let output = scratch.appendingPathComponent("out")
    let run = try Command.run(
      try Fixtures.executable(),
      ["encode", "--profile", profile.path, "--output", output.path, try Fixtures.clip().path])
    #expect(run.status == 1)
    #expect(
      run.stderr.contains("\(hevc.path): rendition hevc: SAMPLE-AES needs MPEG-TS with H.264 video"), "\(run.stderr)")
    #expect((try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? [] == [])
  }

  /// An MPEG-TS source into fMP4: its AAC is ADTS, which MP4 does not carry
  /// (FFmpeg's mov muxer refused the first frame). The sample entry gets the
  /// AudioSpecificConfig the headers stand for, and each frame is the source's
  /// without its header: the same packets as `aac_adtstoasc` makes of the source.
  @Test func adtsAudioFromTransportStreamIntoFragmentedMP4() throws {
    let (run, source, asset) = try encodeMadeSource(
      "clip.ts", ["-i", try Fixtures.clip().path, "-c", "copy"], container: "fmp4", copyAudio: true, method: "none")
    #expect(run.status == 0, "\(run.stderr)")
    let playlist = asset.appendingPathComponent("main/index.m3u8").path
    let audio = try packetHashes(source.path, stream: 1, filter: ["-bsf:a", "aac_adtstoasc"])
    #expect(!audio.isEmpty)
    #expect(try packetHashes(playlist, stream: 1) == audio)
    let master = try String(contentsOf: asset.appendingPathComponent("master.m3u8"), encoding: .utf8)
    #expect(master.contains(",mp4a.40.2\""), "\(master)")
    let decode = try Command.run("ffmpeg", ["-v", "error", "-i", playlist, "-f", "null", "-"])
    #expect(decode.status == 0 && decode.stderr.isEmpty, "\(decode.stderr)")
  }

  /// A copied phone video keeps its display matrix in fMP4 (the track header)
  /// and is declared at the size it is shown; MPEG-TS has no place for the
  /// matrix, so the run says so. Before, both dropped it silently and fMP4
  /// declared 640x360 (found by an independent check).
  @Test func aTurnedSourceKeepsItsTurnInFragmentedMP4AndIsToldOfInTS() throws {
    for container in ["fmp4", "ts"] {
      let (run, _, asset) = try encodeMadeSource(
        "phone.mp4", ["-i", try Fixtures.clip().path, "-c", "copy", "-metadata:s:v:0", "rotate=90"],
        container: container, copyAudio: true,
        method: "none")
      #expect(run.status == 0, "\(run.stderr)")
      let master = try String(contentsOf: asset.appendingPathComponent("master.m3u8"), encoding: .utf8)
      let playlist = asset.appendingPathComponent("main/index.m3u8").path
      let probe = try Command.run(
        "ffprobe",
        [
          "-v", "error", "-allowed_extensions", "ALL", "-select_streams", "v:0", "-show_entries",
          "stream_side_data=rotation", "-of", "csv=p=0", playlist,
        ])
      if container == "fmp4" {
        #expect(probe.text.contains("90"), "no rotation read back: \(probe.text)")
        #expect(master.contains("RESOLUTION=360x640") && !master.contains("RESOLUTION=640x360"), "\(master)")
        #expect(!run.stderr.contains("MPEG-TS cannot carry"), "\(run.stderr)")
      } else {
        #expect(
          run.stderr.contains("rendition main: the video is stored turned or mirrored")
            && run.stderr.contains("MPEG-TS cannot carry"), "\(run.stderr)")
        #expect(master.contains("RESOLUTION=640x360"), "\(master)")
      }
      #expect(
        try packetHashes(
          playlist, stream: 0, filter: container == "ts" ? ["-bsf:v", "filter_units=remove_types=9"] : []
        ).count == Fixtures.clipFrames)
    }
  }

  /// SAMPLE-AES over copied H.264 (length-prefixed in MP4, converted to Annex B
  /// before encryption): every segment is really encrypted and decodes like the source.
  @Test func sampleAESOverCopiedStreams() throws {
    let scratch = try ScratchFolder.make()
    let result = try encode(
      container: "ts", low: try Self.lowSource(in: scratch), encryption: #"{"method": "sample-aes"}"#)
    #expect(result.status == 0, "\(result.stderr)")
    let folder = scratch.appendingPathComponent("out-ts/clip/main")
    let playlist = try PlaylistReader(contentsOf: folder.appendingPathComponent("index.m3u8"))
    for segment in playlist.segments {
      let ts = try TransportStream(Array(try Data(contentsOf: folder.appendingPathComponent(segment.uri))))
      #expect(ts.elementaryStreams.map(\.type) == [0xDB, 0xCF], "\(segment.uri) must announce encrypted streams")
    }
    let decoded = try videoFrameHashes(folder.appendingPathComponent("index.m3u8").path)
    let source = try videoFrameHashes(try Fixtures.clip().path)
    #expect(decoded.count == source.count)
    // FFmpeg's end-of-file SAMPLE-AES defect: the last access units (see SampleAESTests).
    #expect(decoded.dropLast(2) == source.dropLast(2))
  }

  /// Segments several times the writer's part size (512 KiB): AES-128 chains
  /// across parts and ends with one padding, SAMPLE-AES signals every PMT
  /// (repeated before each mid-segment IDR, in later parts), and the report's
  /// checksums cover every part.
  @Test(arguments: ["aes-128", "sample-aes"])
  func segmentsLargerThanAWritePart(method: String) throws {
    let scratch = try ScratchFolder.make()
    // An IDR every 0.4 s, so PMTs recur inside segments.
    let heavy = try Self.heavySource(in: scratch, seconds: 3, gop: 10, audio: true)
    let profile = scratch.appendingPathComponent("heavy.json")
    try Data(
      """
      {"version": 1, "segment": {"duration": 1, "container": "ts", "checksums": true},
       "video": [{"name": "main", "codec": "copy"}], "audio": {"codec": "copy"}, "encryption": {"method": "\(method)"}}
      """.utf8
    ).write(to: profile)
    let output = scratch.appendingPathComponent("out")
    let run = try Command.run(
      try Fixtures.executable(), ["encode", "--profile", profile.path, "--output", output.path, heavy.path])
    try #require(run.status == 0, "\(run.stderr)")
    let asset = output.appendingPathComponent("heavy")
    let playlist = try PlaylistReader(contentsOf: asset.appendingPathComponent("main/index.m3u8"))
    let listed = try Fixtures.reportSegments(asset: asset)
    #expect(listed.count == playlist.segments.count)
    for (index, (segment, entry)) in zip(playlist.segments, listed).enumerated() {
      let file = asset.appendingPathComponent("main").appendingPathComponent(segment.uri)
      let bytes = Array(try Data(contentsOf: file))
      #expect(bytes.count > 2 * 512 * 1024, "\(segment.uri) is \(bytes.count) bytes: too small to span parts")
      #expect(entry["sha256"] as? String == String(try Command.run("sha256sum", [file.path]).text.prefix(64)))
      if method == "aes-128" {
        // One CBC run and one PKCS#7 padding over the whole file; openssl checks the padding.
        #expect(segment.keyAttributes?["IV"] != nil)
        let clear = try Fixtures.clearSegment(segment, in: asset.appendingPathComponent("main"), index: index)
        #expect(clear.count % 188 == 0 && clear.count > bytes.count - 17)
      } else {
        let maps = try TransportStream(bytes).programMaps
        #expect(maps.count >= 2, "\(segment.uri): PMTs before the mid-segment IDRs")
        #expect(maps.allSatisfy { $0.map(\.type) == [0xDB, 0xCF] }, "\(segment.uri): every PMT announces encryption")
      }
    }
    // Through FFmpeg's HLS demuxer (which decrypts): the source's packets, unchanged.
    let hlsPlaylist = asset.appendingPathComponent("main/index.m3u8").path
    if method == "aes-128" {
      let source = try packetHashes(heavy.path, stream: 0, filter: ["-bsf:v", "h264_mp4toannexb"])
      #expect(try packetHashes(hlsPlaylist, stream: 0, filter: ["-bsf:v", "filter_units=remove_types=9"]) == source)
      #expect(
        try packetHashes(hlsPlaylist, stream: 1, filter: ["-bsf:a", "aac_adtstoasc"])
          == (try packetHashes(heavy.path, stream: 1)))
      let decode = try Command.run(
        "ffmpeg", ["-v", "error", "-allowed_extensions", "ALL", "-i", hlsPlaylist, "-f", "null", "-"])
      #expect(decode.status == 0 && decode.stderr.isEmpty, "\(decode.stderr)")
    } else {
      let decoded = try videoFrameHashes(hlsPlaylist)
      let source = try videoFrameHashes(heavy.path)
      #expect(decoded.count == source.count)
      // FFmpeg's end-of-file SAMPLE-AES defect: the last access units (see SampleAESTests).
      #expect(decoded.dropLast(2) == source.dropLast(2))
    }
  }

  /// A write that fails mid-segment (here past a 1 MiB file-size limit) stops
  /// the run with the file named, and publishes nothing; it must not hang.
  @Test(.timeLimit(.minutes(1))) func aFailedSegmentWriteStopsTheRunNamingTheFile() throws {
    let scratch = try ScratchFolder.make()
    let heavy = try Self.heavySource(in: scratch, seconds: 2, gop: 25, audio: false)
    let profile = scratch.appendingPathComponent("heavy.json")
    try Data(
      #"{"version": 1, "segment": {"duration": 1}, "video": [{"name": "main", "codec": "copy"}], "encryption": {"method": "aes-128"}}"#
        .utf8
    ).write(to: profile)
    let output = scratch.appendingPathComponent("out")
    let run = try Command.run(
      "bash",
      [
        "-c", #"ulimit -f 1024 && exec "$0" "$@""#, try Fixtures.executable(), "encode", "--profile", profile.path,
        "--output", output.path, heavy.path,
      ])
    #expect(run.status == 1, "\(run.stderr)")
    #expect(run.stderr.contains("main/segment_00000.ts: cannot write (File too large)"), "\(run.stderr)")
    #expect((try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? [] == [])
  }

  /// Makes `name` with ffmpeg (`arguments` before the output) and packages it
  /// as one copy rung in TS.
  func encodeMadeSource(
    _ name: String, _ arguments: [String], container: String = "ts", copyAudio: Bool = false, method: String = "aes-128"
  ) throws -> (result: CommandResult, source: URL, asset: URL) {
    let scratch = try ScratchFolder.make(name)
    let source = scratch.appendingPathComponent(name)
    let made = try Command.run("ffmpeg", ["-v", "error"] + arguments + [source.path])
    guard made.status == 0 else { throw FixtureError(made.stderr) }
    let profile = scratch.appendingPathComponent("copy.json")
    let audio = copyAudio ? #", "audio": {"codec": "copy"}"# : ""
    try Data(
      #"{"version": 1, "segment": {"duration": 1, "container": "\#(container)"}, "video": [{"name": "main", "codec": "copy"}]\#(audio), "encryption": {"method": "\#(method)"}}"#
        .utf8
    ).write(to: profile)
    let output = scratch.appendingPathComponent("out")
    let result = try Command.run(
      try Fixtures.executable(), ["encode", "--profile", profile.path, "--output", output.path, source.path])
    return (result, source, output.appendingPathComponent(source.deletingPathExtension().lastPathComponent))
  }

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

  /// Copied pictures keep non-square pixels, so RESOLUTION is the size they
  /// are shown at (RFC 8216bis §4.4.6.2): 320x180 of 4:3 pixels show as 426x180,
  /// truncated as Shaka Packager writes it, on the variant and its I-frame variant.
  @Test(arguments: ["ts", "fmp4"])
  func anamorphicPicturesDeclareTheSizeTheyAreShownAt(container: String) throws {
    let (result, _, asset) = try encodeMadeSource(
      "anamorphic.mp4",
      [
        "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=2", "-vf", "setsar=4/3", "-c:v", "libx264",
        "-preset", "ultrafast", "-g", "25",
      ],
      container: container)
    #expect(result.status == 0, "\(result.stderr)")
    let probe = try Command.run(
      "ffprobe",
      [
        "-v", "error", "-allowed_extensions", "ALL", "-select_streams", "v", "-show_entries",
        "stream=width,height,sample_aspect_ratio", "-of", "csv=p=0",
        asset.appendingPathComponent("main/index.m3u8").path,
      ])
    #expect(Set(probe.text.split(separator: "\n")) == ["320,180,4:3"], "what was written: \(probe.text)")
    let master = try String(contentsOf: asset.appendingPathComponent("master.m3u8"), encoding: .utf8)
    let variants = master.split(separator: "\n").filter {
      $0.hasPrefix("#EXT-X-STREAM-INF:") || $0.hasPrefix("#EXT-X-I-FRAME-STREAM-INF:")
    }
    #expect(variants.count == 2)
    for line in variants {
      let attributes = PlaylistReader.attributes(
        String(line[line.index(after: line.firstIndex(of: ":") ?? line.startIndex)...]))
      #expect(attributes["RESOLUTION"] == "426x180", "\(line)")
    }
  }

  /// HDR sources keep their range, and the master says so (RFC 8216bis §4.4.6.2):
  /// VIDEO-RANGE on the variant and on its I-frame variant, none for SDR.
  @Test(arguments: [("smpte2084", "PQ"), ("arib-std-b67", "HLG"), ("bt709", nil)] as [(String, String?)])
  func videoRangeFollowsTheSourcesTransfer(transfer: String, range: String?) throws {
    let (result, _, asset) = try encodeMadeSource("hdr.mp4", Self.tenBitHEVC(transfer: transfer))
    #expect(result.status == 0, "\(result.stderr)")
    let probe = try Command.run(
      "ffprobe",
      [
        "-v", "error", "-allowed_extensions", "ALL", "-select_streams", "v", "-show_entries", "stream=color_transfer",
        "-of", "csv=p=0", asset.appendingPathComponent("main/index.m3u8").path,
      ])
    // One line per program the HLS demuxer lists, and one for the stream.
    let written = Set(probe.text.split(separator: "\n").map(String.init))
    #expect(written == [transfer], "what was written: \(probe.text)")
    let master = try String(contentsOf: asset.appendingPathComponent("master.m3u8"), encoding: .utf8)
    let variants = master.split(separator: "\n").filter {
      $0.hasPrefix("#EXT-X-STREAM-INF:") || $0.hasPrefix("#EXT-X-I-FRAME-STREAM-INF:")
    }
    #expect(variants.count == 2)
    for line in variants {
      let attributes = PlaylistReader.attributes(
        String(line[line.index(after: line.firstIndex(of: ":") ?? line.startIndex)...]))
      #expect(attributes["VIDEO-RANGE"] == range, "\(line)")
    }
  }

  /// ffmpeg arguments for 2 s of 10-bit HEVC (1 s closed GOPs) tagged BT.2020 with `transfer`.
  static func tenBitHEVC(transfer: String) -> [String] {
    [
      "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=2", "-c:v", "libx265", "-preset", "ultrafast",
      "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1",
      "-x265-params",
      "keyint=25:min-keyint=25:scenecut=0:open-gop=0:colorprim=bt2020:transfer=\(transfer):colormatrix=bt2020nc:log-level=error",
    ]
  }

  /// Copied into fMP4, the sample entry holds the parameter sets and the
  /// samples none (ISO/IEC 14496-15 §8.4.1: `hvc1` arrays are complete;
  /// Apple HLS Authoring Spec, Video), as Shaka Packager writes it: from MPEG-TS, whose
  /// samples repeat them with an AUD, and from an `hev1` MP4 (FFmpeg's
  /// default tag), whose record says its arrays are incomplete.
  @Test(arguments: [
    (
      "hevc.ts", ["-c:v", "libx265", "-x265-params", "keyint=25:min-keyint=25:scenecut=0:open-gop=0:log-level=error"],
      "hvc1"
    ),
    (
      "hev1.mp4",
      [
        "-c:v", "libx265", "-tag:v", "hev1", "-x265-params",
        "keyint=25:min-keyint=25:scenecut=0:open-gop=0:log-level=error",
      ], "hvc1"
    ),
    ("h264.ts", ["-c:v", "libx264", "-g", "25", "-bsf:v", "h264_metadata=aud=insert"], "avc1"),
  ])
  func parameterSetsLeaveTheSamplesForTheSampleEntry(name: String, codec: [String], entry: String) throws {
    let (run, _, asset) = try encodeMadeSource(
      name, ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=2", "-pix_fmt", "yuv420p"] + codec,
      container: "fmp4", method: "none")
    #expect(run.status == 0, "\(run.stderr)")
    let folder = asset.appendingPathComponent("main")

    let initialization = try #require(
      try Box.parse(Array(try Data(contentsOf: folder.appendingPathComponent("init.mp4")))[...]).first {
        $0.type == "moov"
      })
    let stsd = try #require(try initialization.find(["trak", "mdia", "minf", "stbl", "stsd"]))
    let sampleEntry = try #require(try stsd.children(skipping: 8).first)
    #expect(sampleEntry.type == entry)
    let hevc = entry == "hvc1"
    if hevc {
      let record = Array(try #require(try sampleEntry.children(skipping: 78).first { $0.type == "hvcC" }).payload)
      var offset = 23
      var complete: [Int: Bool] = [:]
      for _ in 0..<Int(record[22]) {
        complete[Int(record[offset] & 0x3F)] = record[offset] & 0x80 != 0
        let count = Int(record[offset + 1]) << 8 | Int(record[offset + 2])
        offset += 3
        for _ in 0..<count { offset += 2 + (Int(record[offset]) << 8 | Int(record[offset + 1])) }
      }
      #expect(complete[32] == true && complete[33] == true && complete[34] == true, "\(complete)")
    }
    let removed: Set<Int> = hevc ? [32, 33, 34, 35] : [7, 8, 9]
    let playlist = try PlaylistReader(contentsOf: folder.appendingPathComponent("index.m3u8"))
    #expect(playlist.segments.count == 2)
    for segment in playlist.segments {
      let boxes = try Box.parse(Array(try Data(contentsOf: folder.appendingPathComponent(segment.uri)))[...])
      let mdat = Array(try #require(boxes.first { $0.type == "mdat" }).payload)
      var offset = 0
      var types: [Int] = []
      while offset + 4 < mdat.count {
        let length = mdat[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        types.append(hevc ? Int(mdat[offset + 4] >> 1 & 0x3F) : Int(mdat[offset + 4] & 0x1F))
        offset += 4 + length
      }
      #expect(offset == mdat.count && !types.isEmpty)
      #expect(removed.isDisjoint(with: types), "\(segment.uri): NAL types \(types)")
    }
    let decoded = try Command.run(
      "ffmpeg", ["-v", "error", "-i", folder.appendingPathComponent("index.m3u8").path, "-f", "null", "-"])
    #expect(decoded.status == 0 && decoded.stderr.isEmpty, "\(decoded.stderr)")
  }

  @Test func aRawH264StreamIsRefusedForItsMissingTimestamps() throws {
    let (result, _, asset) = try encodeMadeSource(
      "clip.h264", ["-i", try Fixtures.clip().path, "-an", "-c:v", "copy", "-bsf:v", "h264_mp4toannexb"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("clip.h264: video packet 0 has no timestamps"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: asset.path))
  }

  /// Open GOPs mark keyframes whose segments would not decode on their own:
  /// x264's recovery-point I pictures, x265's CRA pictures with RASL followers.
  @Test(arguments: [
    (
      "open.mp4", ["-c:v", "libx264", "-preset", "veryfast", "-g", "25", "-x264-params", "open-gop=1"],
      "the keyframe at 1.000 s that opens a segment is not an IDR picture"
    ),
    (
      "open.mp4",
      ["-c:v", "libx265", "-preset", "fast", "-x265-params", "keyint=25:min-keyint=25:scenecut=0:log-level=none"],
      "that opens a segment is followed by a RASL picture"
    ),
  ])
  func openGOPSourcesAreRefused(name: String, codec: [String], message: String) throws {
    let (result, _, asset) = try encodeMadeSource(
      name, ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=3"] + codec)
    #expect(result.status == 1)
    #expect(result.stderr.contains("rendition main: "), "\(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: asset.path))
  }

  @Test func misalignedKeyframesAreRefusedNamingRenditionAndTime() throws {
    let scratch = try ScratchFolder.make()
    let result = try encode(container: "ts", low: try Self.lowSource(in: scratch, keyframes: "0,1.2,2.2,3.2"))
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "rendition low is not keyframe-aligned with main: segment 1 starts at 1.200 s in low and at 1.000 s in main"))
    #expect(
      (try? FileManager.default.contentsOfDirectory(atPath: scratch.appendingPathComponent("out-ts").path)) ?? [] == [])
  }

  /// Switching variants must not drop or add the sound.
  @Test func aSourceWithoutTheOthersAudioIsRefused() throws {
    let scratch = try ScratchFolder.make()
    let low = try Self.lowSource(in: scratch, audio: false)
    let result = try encode(container: "ts", low: low)
    #expect(result.status == 1)
    #expect(
      result.stderr.contains("\(low.path): has no audio stream, but the source of rendition main has one"),
      "\(result.stderr)")
  }

  @Test func renditionsOfDifferentLengthsAreRefused() throws {
    let scratch = try ScratchFolder.make()
    let result = try encode(container: "ts", low: try Self.lowSource(in: scratch, seconds: 3.2))
    #expect(result.status == 1)
    #expect(result.stderr.contains("rendition low ends at 3.200 s but main ends at 4.000 s"), "\(result.stderr)")
  }

  @Test func ac3IntoFragmentedMP4IsRefusedNamingTheStream() throws {
    let scratch = try ScratchFolder.make()
    let low = try Self.lowSource(in: scratch, audioCodec: "ac3")
    let result = try encode(container: "fmp4", low: low)
    #expect(result.status == 1)
    #expect(
      result.stderr.contains("\(low.path): audio stream is ac3, which hlspack does not put in fMP4"), "\(result.stderr)"
    )
  }

  @Test func segmentsTooLongForTheTargetAreRefused() throws {
    let scratch = try ScratchFolder.make()
    let result = try encode(container: "ts", low: try Self.lowSource(in: scratch, keyframes: "0,1,3"))
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "rendition low: the segment starting at 1.000 s lasts 2.000 s, more than the target 1 s + 0.5 s"))
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
