import CFFmpeg
import Testing

@testable import HLSPackCore
@testable import HLSPackMedia

/// Alternate audio is cut where `SegmentBoundaries` says, within its 1 ms
/// tolerance: an AAC frame that starts less than 1 ms before k·D opens
/// segment k. Before `SegmentBoundaries`, the rendition's own rule allowed
/// only 0.5 ms; a frame 0.7 ms early tells the two apart.
@Suite struct AudioRenditionMuxerTests {
  /// An MPEG-TS source's clock.
  static let timeBase = AVRational(num: 1, den: 90_000)
  /// 1024 samples at 48 kHz.
  static let frameTicks: Int64 = 1920
  static let segmentDuration = 2.0
  static let boundary: Int64 = 180_000

  /// Where the rendition's segments start (source ticks) when AAC frames
  /// 1024 samples apart come so that one starts `early` ticks before 2 s,
  /// and the frames' times.
  private func segmentStarts(frameEarly early: Int64) throws -> (starts: [Int64], frames: [Int64]) {
    let encoder = try Encoder.audio(
      AudioSettings(codec: .aac, bitrate: 64_000, channels: 1, sampleRate: 48_000), bitExact: true,
      globalHeader: false)
    // One real AAC frame carried at every time: the cuts depend only on the times.
    let payload = try #require(try EncodedClip.encodeTone(encoder, seconds: 1).first)
    let sink = RecordingSegmentSink()
    let muxer = try AudioRenditionMuxer(
      parameters: CodecParameters(from: encoder.ctx), timeBase: Self.timeBase,
      output: RenditionOutput(container: .ts, segmentDuration: Self.segmentDuration, reproducible: true),
      destination: SegmentDestination(sink: sink))
    let frames = Array(
      stride(from: (Self.boundary - early) % Self.frameTicks, to: 5 * 90_000, by: Int(Self.frameTicks)))
    for ticks in frames {
      let packet = try Packet(referencing: payload.pointer)
      packet.pointer.pointee.pts = ticks
      packet.pointer.pointee.dts = ticks
      packet.pointer.pointee.duration = Self.frameTicks
      try muxer.write(packet)
    }
    _ = try muxer.finish(videoEnd: nil)
    // MPEG-TS keeps the source's 90 kHz ticks, moved to the package clock.
    return (sink.segments.map { $0.segment.startTicks - MediaClock.timelineOffset }, frames)
  }

  @Test func aFrameSevenTenthsOfAMillisecondEarlyOpensTheSegment() throws {
    // 0.7 ms is 63 ticks: within 1 ms; the 0.5 ms rule waited for the next frame, 21 ms later.
    let (starts, frames) = try segmentStarts(frameEarly: 63)
    #expect(frames.contains(Self.boundary - 63))
    let third = try #require(frames.first { $0 >= 2 * Self.boundary })
    #expect(starts == [frames[0], Self.boundary - 63, third])
  }

  @Test func aFrameOneAndAHalfMillisecondsEarlyDoesNot() throws {
    // 1.5 ms is 135 ticks: the segment starts at the first frame after 2 s.
    let (starts, frames) = try segmentStarts(frameEarly: 135)
    #expect(frames.contains(Self.boundary - 135))
    let second = try #require(frames.first { $0 >= Self.boundary })
    let third = try #require(frames.first { $0 >= 2 * Self.boundary })
    #expect(second == Self.boundary - 135 + Self.frameTicks)
    #expect(starts == [frames[0], second, third])
  }
}
