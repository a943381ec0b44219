import Foundation
import HLSPackTestSupport
import Testing

/// Copied pictures keep what the source says about them: turn, pixel aspect,
/// video range, and parameter sets in the fMP4 sample entry.
extension CopyModeTests {
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
}
