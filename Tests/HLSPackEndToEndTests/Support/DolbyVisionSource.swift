import Foundation
import HLSPackTestSupport

/// A Dolby Vision profile 8 test source, made here at test time: 2 s of x265
/// Main 10 (PQ for 8.1, HLG for 8.4) from the ffmpeg CLI, an RPU
/// (`DolbyVisionRPU`) appended to every access unit, muxed into MP4 by the
/// ffmpeg CLI, and the sample entry given its `dvvC` box (the configuration
/// record FFmpeg reads as AV_PKT_DATA_DOVI_CONF). The x265 stream without
/// RPUs is its clear twin.
enum DolbyVisionSource {
  struct Made {
    /// The Dolby Vision MP4.
    var source: URL
    /// The same pictures without RPUs or dvvC.
    var twin: URL
  }

  /// `compatibility`: 1 (HDR10, PQ) or 4 (HLG); `level` the dvvC's.
  static func make(in folder: URL, compatibility: Int, level: Int = 1) throws -> Made {
    let hlg = compatibility == 4
    let transfer = hlg ? "arib-std-b67" : "smpte2084"
    let base = folder.appendingPathComponent("base.hevc")
    try ffmpeg([
      "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=2", "-c:v", "libx265", "-preset", "ultrafast",
      "-pix_fmt", "yuv420p10le", "-x265-params",
      "keyint=25:min-keyint=25:scenecut=0:open-gop=0:bframes=0:aud=1:colorprim=bt2020:transfer=\(transfer)"
        + ":colormatrix=bt2020nc:log-level=error",
      "-f", "hevc", base.path,
    ])
    let withRPUs = folder.appendingPathComponent("dv.hevc")
    // PQ code values of the mastering display: 0.005–1000 cd/m² (HDR10), 0–1000 (HLG).
    let sourcePQ = hlg ? (min: 0, max: 3079) : (min: 62, max: 3079)
    try Data(appendingRPUs(to: [UInt8](try Data(contentsOf: base)), sourcePQ: sourcePQ)).write(to: withRPUs)
    let twin = folder.appendingPathComponent("twin.mp4")
    let muxed = folder.appendingPathComponent("dv-no-dvvc.mp4")
    for (input, output) in [(base, twin), (withRPUs, muxed)] {
      try ffmpeg(["-framerate", "25", "-i", input.path, "-c:v", "copy", "-tag:v", "hvc1", output.path])
    }
    let source = folder.appendingPathComponent("dv.mp4")
    let record = configurationRecord(profile: 8, level: level, compatibility: compatibility)
    try Data(try addingDVVC(record, to: [UInt8](try Data(contentsOf: muxed)))).write(to: source)
    return Made(source: source, twin: twin)
  }

  /// The same stream with a configuration record of another profile (its `dvcC` or `dvvC`), beside it.
  static func redeclared(_ made: Made, profile: Int) throws -> URL {
    let folder = made.source.deletingLastPathComponent()
    let record = configurationRecord(profile: profile, level: 1, compatibility: profile == 5 ? 0 : 1)
    let other = folder.appendingPathComponent("dv-\(profile).mp4")
    let plain = [UInt8](try Data(contentsOf: folder.appendingPathComponent("dv-no-dvvc.mp4")))
    try Data(try addingDVVC(record, to: plain)).write(to: other)
    return other
  }

  private static func ffmpeg(_ arguments: [String]) throws {
    let run = try Command.run("ffmpeg", ["-v", "error", "-y"] + arguments)
    guard run.status == 0 else { throw FixtureError("ffmpeg \(arguments.joined(separator: " ")): \(run.stderr)") }
  }

  /// An RPU NAL unit at the end of every access unit of an Annex B stream
  /// that begins each with an access unit delimiter (x265 `aud=1`). Every
  /// start code is 3 bytes: FFmpeg 5.1's MP4 muxer leaves the first zero of a
  /// 4-byte one at the end of the NAL unit before, and FFmpeg 8.1 then fails
  /// to parse an RPU that ends in a zero byte ("Error parsing DOVI NAL unit").
  static func appendingRPUs(to stream: [UInt8], sourcePQ: (min: Int, max: Int)) -> [UInt8] {
    var out: [UInt8] = []
    var keyframe = false
    var started = false
    func endAccessUnit() {
      out += [0, 0, 1] + DolbyVisionRPU.nalUnit(sceneRefresh: keyframe, sourcePQ: sourcePQ)
    }
    for unit in annexBUnits(stream) {
      let type = unit.first.map { Int($0 >> 1 & 0x3F) } ?? -1
      if type == 35 {
        if started { endAccessUnit() }
        started = true
        keyframe = false
      }
      if (16...21).contains(type) { keyframe = true }
      out += [0, 0, 1] + unit
    }
    if started { endAccessUnit() }
    return out
  }

  /// The NAL units between start codes (trailing zero bytes belong to the next start code).
  static func annexBUnits(_ bytes: [UInt8]) -> [[UInt8]] {
    var starts: [Int] = []
    var i = 0
    while i + 2 < bytes.count {
      if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1 {
        starts.append(i + 3)
        i += 3
      } else {
        i += 1
      }
    }
    return starts.enumerated().map { index, start in
      var end = index + 1 < starts.count ? starts[index + 1] - 3 : bytes.count
      while index + 1 < starts.count, end > start, bytes[end - 1] == 0 { end -= 1 }
      return Array(bytes[start..<end])
    }
  }

  /// A `dvcC`/`dvvC` payload: versions 1.0, profile, level, RPU and BL
  /// present, no EL, the compatibility id, and 19 reserved zero bytes.
  static func configurationRecord(profile: Int, level: Int, compatibility: Int) -> [UInt8] {
    [1, 0, UInt8(profile << 1 | level >> 5), UInt8((level & 31) << 3 | 0b101), UInt8(compatibility << 4)]
      + [UInt8](repeating: 0, count: 19)
  }

  /// The MP4 with a `dvvC` box (`dvcC` for profiles up to 7) at the end of
  /// its video sample entry, every box around it grown to hold it. The moov
  /// must follow the mdat (the ffmpeg CLI's default), so no chunk offset moves.
  static func addingDVVC(_ record: [UInt8], to file: [UInt8]) throws -> [UInt8] {
    let type = record[2] >> 1 > 7 ? "dvvC" : "dvcC"
    let box = bigEndian(UInt32(8 + record.count)) + Array(type.utf8) + record
    let top = boxes(file, in: 0..<file.count)
    guard let moovIndex = top.firstIndex(where: { $0.type == "moov" }),
      let mdatIndex = top.firstIndex(where: { $0.type == "mdat" }), moovIndex > mdatIndex
    else { throw FixtureError("the MP4 has no moov after its mdat") }
    let moov = top[moovIndex]
    var path = [moov]
    for name in ["trak", "mdia", "minf", "stbl", "stsd", "hvc1"] {
      let parent = path[path.count - 1]
      // stsd: version, flags and entry count; hvc1 is a visual sample entry.
      let skip = parent.type == "stsd" ? 16 : 8
      let children = boxes(file, in: (parent.start + skip)..<parent.end)
      let found =
        name == "trak" ? children.first { containsHVC1(file, $0) } : children.first { $0.type == name }
      guard let found else { throw FixtureError("no \(name) in \(parent.type)") }
      path.append(found)
    }
    var out = file
    out.insert(contentsOf: box, at: path[path.count - 1].end)
    for parent in path {
      let size = Int(BigEndian32.read(out, parent.start)) + box.count
      out.replaceSubrange(parent.start..<(parent.start + 4), with: bigEndian(UInt32(size)))
    }
    return out
  }

  private struct Box {
    var type: String
    var start: Int
    var end: Int
  }

  private static func boxes(_ bytes: [UInt8], in range: Range<Int>) -> [Box] {
    var found: [Box] = []
    var at = range.lowerBound
    while at + 8 <= range.upperBound {
      let size = Int(BigEndian32.read(bytes, at))
      guard size >= 8, at + size <= range.upperBound else { break }
      found.append(Box(type: String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self), start: at, end: at + size))
      at += size
    }
    return found
  }

  private static func containsHVC1(_ bytes: [UInt8], _ trak: Box) -> Bool {
    trak.type == "trak" && (trak.start..<(trak.end - 4)).contains { bytes[$0..<($0 + 4)].elementsEqual("hvc1".utf8) }
  }

  private static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }
}

private enum BigEndian32 {
  static func read(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    bytes[at..<(at + 4)].reduce(0) { $0 << 8 | UInt32($1) }
  }
}
