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

}
