import Foundation
import Testing

/// Packaging pre-encoded sources as they are: packets unchanged, cuts at the
/// sources' keyframes, and clear refusals when the sources cannot make a
/// conformant ladder.
@Suite("Packaging without re-encoding")
struct CopyModeTests {
  /// A second pre-encoded rendition with the clip's 1 s GOPs.
  static func lowSource(in folder: URL, keyframes: String? = nil) throws -> URL {
    let url = folder.appendingPathComponent("low.mp4")
    var arguments = [
      "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=4",
      "-c:v", "libx264", "-preset", "ultrafast", "-sc_threshold", "0",
    ]
    arguments += keyframes.map { ["-g", "1000", "-force_key_frames", $0] } ?? ["-g", "25"]
    let result = try Command.run("ffmpeg", arguments + [url.path])
    guard result.status == 0 else { throw FixtureError(result.stderr) }
    return url
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
      ["encode", "--profile", profile.path, "--output", scratch.appendingPathComponent("out-\(container)").path, try Fixtures.clip().path])
  }

  /// Per-packet (stream, size, MD5) of one stream, as `ffmpeg -c copy -f framemd5` reports them.
  func packetHashes(_ path: String, stream: Int, filter: [String] = []) throws -> [String] {
    let hls = path.hasSuffix(".m3u8") ? ["-allowed_extensions", "ALL"] : []
    let result = try Command.run(
      "ffmpeg", ["-v", "error"] + hls + ["-i", path, "-map", "0:\(stream)", "-c", "copy"] + filter + ["-f", "framemd5", "-"])
    #expect(result.status == 0, "\(result.stderr)")
    return result.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
      let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      return "\(fields[0]) \(fields[4]) \(fields[5])"
    }
  }

  @Test(arguments: ["fmp4", "ts"])
  func packetsAreCarriedUnchanged(container: String) throws {
    let scratch = try Fixtures.scratchFolder()
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
    let decode = try Command.run("ffmpeg", ["-v", "error", "-allowed_extensions", "ALL", "-i", playlist, "-f", "null", "-"])
    #expect(decode.status == 0 && decode.stderr.isEmpty)
  }

  /// SAMPLE-AES over copied H.264 (length-prefixed in MP4, converted to Annex B
  /// before encryption): every segment is really encrypted and decodes like the source.
  @Test func sampleAESOverCopiedStreams() throws {
    let scratch = try Fixtures.scratchFolder()
    let result = try encode(container: "ts", low: try Self.lowSource(in: scratch), encryption: #"{"method": "sample-aes"}"#)
    #expect(result.status == 0, "\(result.stderr)")
    let folder = scratch.appendingPathComponent("out-ts/clip/main")
    let playlist = try PlaylistReader(contentsOf: folder.appendingPathComponent("index.m3u8"))
    for segment in playlist.segments {
      let ts = try TransportStream(Array(try Data(contentsOf: folder.appendingPathComponent(segment.uri))))
      #expect(ts.elementaryStreams.map(\.type) == [0xDB, 0xCF], "\(segment.uri) must announce encrypted streams")
    }
    func frames(_ path: String) throws -> [String] {
      let hls = path.hasSuffix(".m3u8") ? ["-allowed_extensions", "ALL"] : []
      let run = try Command.run("ffmpeg", ["-v", "error"] + hls + ["-i", path, "-map", "0:v", "-f", "framemd5", "-"])
      return run.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last ?? "") }
    }
    let decoded = try frames(folder.appendingPathComponent("index.m3u8").path)
    let source = try frames(try Fixtures.clip().path)
    #expect(decoded.count == source.count)
    // FFmpeg's end-of-file SAMPLE-AES defect: the last access units (see SampleAESTests).
    #expect(decoded.dropLast(2) == source.dropLast(2))
  }

  @Test func misalignedKeyframesAreRefusedNamingRenditionAndTime() throws {
    let scratch = try Fixtures.scratchFolder()
    let result = try encode(container: "ts", low: try Self.lowSource(in: scratch, keyframes: "0,1.2,2.2,3.2"))
    #expect(result.status == 1)
    #expect(result.stderr.contains("rendition low is not keyframe-aligned with main: segment 1 starts at 1.200 s in low and at 1.000 s in main"))
    #expect((try? FileManager.default.contentsOfDirectory(atPath: scratch.appendingPathComponent("out-ts").path)) ?? [] == [])
  }

  @Test func segmentsTooLongForTheTargetAreRefused() throws {
    let scratch = try Fixtures.scratchFolder()
    let result = try encode(container: "ts", low: try Self.lowSource(in: scratch, keyframes: "0,1,3"))
    #expect(result.status == 1)
    #expect(result.stderr.contains("rendition low: the segment starting at 1.000 s lasts 2.000 s, more than the target 1 s + 0.5 s"))
  }
}
