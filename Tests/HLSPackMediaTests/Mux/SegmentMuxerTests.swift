import CFFmpeg
import Testing

@testable import HLSPackCore
@testable import HLSPackMedia

/// A rendition's muxer driven whole, as a rung worker drives it, with encoded
/// H.264 and AAC (and as an alternate audio rendition, with AAC alone): what
/// its sink receives, in both containers. Segments are 1 s; the 12-frame GOP
/// puts keyframes inside segments too, which must not cut.
@Suite struct SegmentMuxerTests {
  static let schedule = KeyframeSchedule(segmentDuration: 1, rate: EncodedClip.rate)
  /// Segment k starts at k·D on the package clock, 3 s of clip.
  static let starts = (0..<3).map { MediaClock.timelineOffset + Int64($0) * MediaClock.ticksPerSecond }

  /// Muxes 3 s of clip into `container`: all audio queued first (the muxer
  /// interleaves it by decode time), then video opening a segment at each
  /// scheduled IDR, as `RungWorker` decides it.
  private func mux(_ container: Container) throws -> RecordingSegmentSink {
    let clip = try EncodedClip(seconds: 3, schedule: Self.schedule, gopFrames: 12, globalHeader: container == .fmp4)
    let sink = RecordingSegmentSink()
    let muxer = try SegmentMuxer(
      output: RenditionOutput(container: container, segmentDuration: 1, reproducible: true),
      video: CodecParameters(from: clip.video.ctx), videoTimeBase: clip.video.timeBase,
      audio: CodecParameters(from: clip.audio.ctx), audioTimeBase: clip.audio.timeBase,
      destination: SegmentDestination(sink: sink))
    for packet in clip.audioPackets { try muxer.writeAudio(packet) }
    for packet in clip.videoPackets {
      let opens = packet.isKeyframe && Self.schedule.isBoundary(frameIndex: packet.pointer.pointee.pts)
      try muxer.writeVideo(packet, opensSegment: opens)
    }
    try muxer.finish()
    #expect(clip.videoPackets.filter(\.isKeyframe).count > Self.starts.count)
    return sink
  }

  /// What both containers share: one segment per boundary, each starting
  /// there and lasting D, and every byte in exactly one segment.
  private func expectSegmentsAtTheBoundaries(_ sink: RecordingSegmentSink) {
    #expect(sink.segments.map(\.segment.startTicks) == Self.starts)
    #expect(sink.segments.map(\.segment.durationTicks) == Self.starts.map { _ in MediaClock.ticksPerSecond })
    #expect(sink.openParts.isEmpty, "bytes arrived after the last segment ended")
    #expect(sink.segments.map(\.bytes.count).reduce(0, +) == sink.byteCount)
    #expect(sink.segments.allSatisfy { !$0.bytes.isEmpty })
  }

  /// Whole 188-byte packets, the first two the PAT and the PMT it names:
  /// every segment opens with the tables (RFC 8216bis §3.1.1).
  private func expectPacketsOpeningWithTheTables(_ bytes: [UInt8]) {
    #expect(bytes.count % TS.packetSize == 0 && bytes.count >= 2 * TS.packetSize)
    guard bytes.count >= 2 * TS.packetSize else { return }
    #expect(stride(from: 0, to: bytes.count, by: TS.packetSize).allSatisfy { bytes[$0] == TS.syncByte })
    #expect(TS.pid(bytes, at: 0) == 0 && TS.tableID(bytes, at: 0) == 0x00)
    #expect(TS.pid(bytes, at: TS.packetSize) == TS.programMapPID(bytes, at: 0))
    #expect(TS.tableID(bytes, at: TS.packetSize) == 0x02)
  }

  @Test func transportStreamSegmentsOpenWithPATAndPMTAndHoldTheirIFrames() throws {
    let sink = try mux(.ts)
    #expect(sink.initializations.isEmpty)
    #expect(!sink.calls.contains(.initialization))
    expectSegmentsAtTheBoundaries(sink)
    for recorded in sink.segments {
      let bytes = recorded.bytes, segment = recorded.segment
      expectPacketsOpeningWithTheTables(bytes)
      // Each I-frame range lies in its segment and decodes with the tables
      // that open the segment; the first leaves them out (RFC 8216bis
      // §4.4.3.6) and starts at its IDR's video PES, the others open with the PAT.
      #expect(segment.keyframes.first?.ptsTicks == segment.startTicks)
      #expect(segment.keyframes.count >= 2, "the 12-frame GOP has keyframes inside the segment")
      let tablesEnd = 3 * TS.packetSize  // PAT, PMT, SDT
      #expect(segment.keyframes.first?.offset == tablesEnd)
      #expect(TS.pid(bytes, at: tablesEnd) == 0x100 && bytes[tablesEnd + 1] & 0x40 != 0)
      for (index, range) in segment.keyframes.enumerated() {
        #expect(range.offset >= 0 && range.length > 0 && range.offset + range.length <= bytes.count, "\(range)")
        #expect(range.offset % TS.packetSize == 0 && (index == 0 || TS.pid(bytes, at: range.offset) == 0), "\(range)")
        #expect((segment.startTicks..<segment.startTicks + segment.durationTicks).contains(range.ptsTicks))
      }
    }
  }

  /// An audio-only rendition, cut on its own frames: no keyframe brings the
  /// tables, and every segment still opens with them.
  @Test func audioOnlyTransportStreamSegmentsOpenWithPATAndPMTToo() throws {
    let encoder = try Encoder.audio(
      AudioSettings(codec: .aac, bitrate: 64_000, channels: 1, sampleRate: 48_000), bitExact: true,
      globalHeader: false)
    let packets = try EncodedClip.encodeTone(encoder, seconds: 3)
    let sink = RecordingSegmentSink()
    let muxer = try SegmentMuxer(
      output: RenditionOutput(container: .ts, segmentDuration: 1, reproducible: true), video: nil,
      videoTimeBase: nil, audio: CodecParameters(from: encoder.ctx), audioTimeBase: encoder.timeBase,
      destination: SegmentDestination(sink: sink))
    var boundaries = SegmentBoundaries(segmentDuration: 1)
    for packet in packets {
      let seconds = Double(packet.pointer.pointee.pts) * encoder.timeBase.seconds
      try muxer.writeAudioOnly(packet, opensSegment: boundaries.reaches(seconds))
    }
    try muxer.finish()
    #expect(sink.segments.count == 3)
    #expect(sink.openParts.isEmpty)
    #expect(sink.segments.map(\.bytes.count).reduce(0, +) == sink.byteCount)
    for recorded in sink.segments { expectPacketsOpeningWithTheTables(recorded.bytes) }
  }

  @Test func fragmentedMP4HandsItsInitSegmentOnceThenOneFragmentPerSegment() throws {
    let sink = try mux(.fmp4)
    #expect(sink.calls.first == .initialization)
    #expect(sink.calls.filter { $0 == .initialization }.count == 1)
    let initialization = try #require(sink.initializations.first)
    #expect(MP4.boxTypes(initialization) == ["ftyp", "moov"])
    expectSegmentsAtTheBoundaries(sink)
    for recorded in sink.segments {
      let bytes = recorded.bytes, segment = recorded.segment
      #expect(recorded.parts.count == 1, "a fragment comes whole")
      #expect(MP4.boxTypes(bytes) == ["moof", "mdat"])
      // The I-frame range: the moof and the fragment's first sample, the keyframe.
      let moofSize = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
      #expect(segment.keyframes.count == 1)
      let range = try #require(segment.keyframes.first)
      #expect(range.offset == 0 && range.length > moofSize + 8 && range.length <= bytes.count, "\(range)")
      #expect(range.ptsTicks == segment.startTicks)
    }
  }
}

/// Just enough MPEG-TS (ISO/IEC 13818-1 §2.4.3, §2.4.4) to name the packets a segment starts with.
private enum TS {
  static let packetSize = 188
  static let syncByte: UInt8 = 0x47

  static func pid(_ bytes: [UInt8], at offset: Int) -> Int {
    Int(bytes[offset + 1] & 0x1F) << 8 | Int(bytes[offset + 2])
  }

  /// Where the section in the packet at `offset` starts: past the adaptation field and the pointer field.
  private static func section(_ bytes: [UInt8], at offset: Int) -> Int {
    let hasAdaptationField = bytes[offset + 3] & 0x20 != 0
    let payload = hasAdaptationField ? offset + 5 + Int(bytes[offset + 4]) : offset + 4
    return payload + 1 + Int(bytes[payload])
  }

  static func tableID(_ bytes: [UInt8], at offset: Int) -> UInt8 {
    bytes[section(bytes, at: offset)]
  }

  /// The PMT's PID from the PAT at `offset`: its first program's entry, after the 8-byte section header.
  static func programMapPID(_ bytes: [UInt8], at offset: Int) -> Int {
    let entry = section(bytes, at: offset) + 8
    return Int(bytes[entry + 2] & 0x1F) << 8 | Int(bytes[entry + 3])
  }
}

/// The top-level boxes of ISO/IEC 14496-12 bytes.
private enum MP4 {
  /// Their types, in order; nil when the sizes do not add up to the bytes.
  static func boxTypes(_ bytes: [UInt8]) -> [String]? {
    var types: [String] = []
    var offset = 0
    while offset + 8 <= bytes.count {
      let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      guard size >= 8 else { return nil }
      types.append(String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self))
      offset += size
    }
    return offset == bytes.count ? types : nil
  }
}
