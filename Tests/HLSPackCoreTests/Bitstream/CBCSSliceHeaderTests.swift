import Foundation
import HLSPackTestSupport
import Testing

@testable import HLSPackCore

/// Slice header lengths against an independent reader: FFmpeg's
/// `trace_headers` bitstream filter (libavcodec's CBS) prints every slice
/// header element with its bit position, so the header's end is known to the
/// bit. Clips come from the ffmpeg CLI with the encoder settings hlspack uses
/// (its default presets) and the features x264 and x265 can be asked for.
@Suite(.serialized) struct CBCSSliceHeaderTests {
  struct Clip: CustomTestStringConvertible, Sendable {
    var name: String
    var arguments: [String]
    var testDescription: String { name }
  }

  static let h264: [Clip] = [
    Clip(
      name: "x264 ultrafast baseline (CAVLC, no deblocking)",
      arguments: ["-c:v", "libx264", "-preset", "ultrafast", "-profile:v", "baseline"]),
    Clip(
      name: "x264 veryfast high (hlspack's default)",
      arguments: ["-c:v", "libx264", "-preset", "veryfast", "-profile:v", "high"]),
    Clip(name: "x264 veryslow (b-pyramid, weightp 2, 16 refs)", arguments: ["-c:v", "libx264", "-preset", "veryslow"]),
    Clip(
      name: "x264 4 slices, CAVLC, weightp, B-pyramid",
      arguments: ["-c:v", "libx264", "-x264-params", "slices=4:cabac=0:weightp=2:bframes=3:b-pyramid=normal"]),
    Clip(name: "x264 MBAFF interlaced", arguments: ["-c:v", "libx264", "-x264-params", "interlaced=1:tff=1"]),
    Clip(
      name: "x264 4:4:4 with JVT scaling matrices",
      arguments: ["-pix_fmt", "yuv444p", "-c:v", "libx264", "-profile:v", "high444", "-x264-params", "cqm=jvt"]),
    Clip(name: "x264 without B-frames (POC type 2)", arguments: ["-c:v", "libx264", "-bf", "0"]),
    Clip(name: "x264 10-bit", arguments: ["-pix_fmt", "yuv420p10le", "-c:v", "libx264"]),
  ]

  /// One frame thread: Debian's libx265 3.5 once hung for good at the end of
  /// the "without WPP" clip, every thread waiting in rate control, with the
  /// default frame threads. Slice header syntax does not depend on them.
  static func x265(_ name: String, _ params: String, pixelFormat: String = "yuv420p", preset: String = "fast") -> Clip {
    Clip(
      name: name,
      arguments: [
        "-pix_fmt", pixelFormat, "-c:v", "libx265", "-preset", preset, "-x265-params",
        "log-level=error:frame-threads=1" + params,
        "-tag:v", "hvc1",
      ])
  }

  static let hevc: [Clip] = [
    x265("x265 ultrafast", "", preset: "ultrafast"),
    x265("x265 fast (hlspack's default, WPP entry points)", ""),
    x265("x265 slow (weightp, rect, amp)", "", preset: "slow"),
    x265("x265 3 slices", ":slices=3"),
    x265("x265 without WPP", ":wpp=0"),
    x265("x265 weightb, 6 B-frames, b-pyramid, 5 refs", ":weightb=1:bframes=6:b-pyramid=1:ref=5"),
    x265("x265 no SAO, no deblocking", ":sao=0:deblock=0"),
    x265("x265 deblocking offsets", ":deblock=2,-2:rect=1:amp=1"),
    x265("x265 in-band parameter sets, optimised PPS", ":repeat-headers=1:opt-ref-list-length-pps=1:opt-qp-pps=1"),
    x265("x265 temporal layers, open GOP, RADL", ":temporal-layers=1:open-gop=1:radl=2"),
    x265("x265 4:4:4 transform skip, CU lossless", ":tskip=1:cu-lossless=1", pixelFormat: "yuv444p"),
    x265("x265 lossless", ":lossless=1"),
    x265(
      "x265 scaling lists, AQ with QP groups, sign hiding",
      ":scaling-list=default:aq-mode=2:qg-size=16:signhide=1:constrained-intra=1"),
    x265("x265 Main 10", "", pixelFormat: "yuv420p10le"),
    x265("x265 HRD", ":hrd=1:vbv-bufsize=1000:vbv-maxrate=500"),
  ]

  @Test(arguments: h264 + hevc)
  func headerLengthsMatchFFmpegsTraceHeaders(_ clip: Clip) throws {
    let folder = try TemporaryFolder()
    let file = folder.url.appendingPathComponent("clip.mp4")
    let encode = try Command.run(
      "ffmpeg",
      ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x192:rate=25:duration=2"]
        + clip.arguments
        + ["-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-f", "mp4", file.path])
    try #require(encode.status == 0, "\(encode.stderr)")
    let hevc = clip.arguments.contains("libx265")

    let reference = try traceHeaderEnds(file)
    let measured = try sliceHeaders(Array(try Data(contentsOf: file)), hevc: hevc)
    #expect(measured.count == reference.count, "slices: \(measured.count) read, \(reference.count) traced")
    #expect(measured.count >= 50)
    var mismatches = 0
    for (index, (slice, endBit)) in zip(measured, reference).enumerated() {
      let expected = escapedLength(slice.nal, rbspBytes: (endBit + 7) / 8)
      if slice.header != expected {
        mismatches += 1
        if mismatches <= 3 {
          Issue.record("slice \(index): \(slice.header) bytes read, \(expected) traced (\(endBit) bits)")
        }
      }
    }
    #expect(mismatches == 0)
  }

  /// Every slice's NAL unit bytes and our header length (NAL unit header included), in decode order.
  func sliceHeaders(_ bytes: [UInt8], hevc: Bool) throws -> [(nal: ArraySlice<UInt8>, header: Int)] {
    let top = try ISOBox.children(of: bytes, in: 0..<bytes.count, context: "clip")
    let moov = try #require(top.firstIndex { $0.type == "moov" })
    let initSegment = Array(bytes[0..<top[moov].end])
    let layout = try InitSegmentLayout(initSegment)
    let track = try #require(layout.tracks.first)
    let entry = try #require(track.entries.first)
    let config =
      try hevc ? DecoderConfiguration.hevc(entry.configuration) : DecoderConfiguration.avc(entry.configuration)
    let mapper = try CBCSSubsampleMapper(codec: hevc ? .hevc : .h264, configuration: config)
    var slices: [(ArraySlice<UInt8>, Int)] = []
    for moof in top where moof.type == "moof" {
      let traf = try #require(
        try ISOBox.children(of: bytes, in: moof.payloadRange, context: "moof").first { $0.type == "traf" })
      let fragment = try TrackFragmentLayout(bytes, moof: moof, traf: traf) { _ in nil }
      for sample in fragment.samples {
        for nal in try mapper.nalUnits(bytes, sample: sample) {
          if let header = nal.headerLength { slices.append((bytes[nal.range], header)) }
        }
      }
    }
    return slices
  }

  /// The end (in RBSP bits from the NAL unit's first bit) of every slice
  /// header trace_headers prints, in decode order; H.264's
  /// cabac_alignment_one_bit belongs to the slice data.
  func traceHeaderEnds(_ file: URL) throws -> [Int] {
    let trace = try Command.run(
      "ffmpeg",
      ["-hide_banner", "-nostats", "-i", file.path, "-c:v", "copy", "-bsf:v", "trace_headers", "-f", "null", "-"])
    try #require(trace.status == 0, "\(trace.stderr.suffix(500))")
    var ends: [Int] = []
    var current: Int?
    for line in trace.stderr.split(separator: "\n") {
      guard let bracket = line.range(of: "] ") else { continue }
      let text = line[bracket.upperBound...]
      if text == "Slice Header" || text == "Slice Segment Header" {
        if let current { ends.append(current) }
        current = 0
        continue
      }
      guard let value = current else { continue }
      let fields = text.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count >= 5, let position = Int(fields[0]), fields[fields.count - 2] == "=" else {
        // Any other line ends the header's block.
        ends.append(value)
        current = nil
        continue
      }
      if fields[1] == "cabac_alignment_one_bit" { continue }
      let bits = fields[fields.count - 3]
      current = max(value, position + bits.count)
    }
    if let current { ends.append(current) }
    return ends
  }

  /// Escaped bytes from the NAL unit's start that hold its first `rbspBytes` RBSP bytes.
  func escapedLength(_ nal: ArraySlice<UInt8>, rbspBytes: Int) -> Int {
    var count = 0, zeros = 0, taken = 0
    for byte in nal {
      guard taken < rbspBytes else { break }
      count += 1
      if zeros >= 2, byte == 3 {
        zeros = 0
        continue
      }
      zeros = byte == 0 ? zeros + 1 : 0
      taken += 1
    }
    return count
  }
}
