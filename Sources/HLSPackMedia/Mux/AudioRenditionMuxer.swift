internal import CFFmpeg
import HLSPackCore

/// An alternate audio rendition's own segments: audio-only, cut at the first
/// audio frame at or after every multiple of the segment duration, so they
/// line up with the video segments.
final class AudioRenditionMuxer {
  private let muxer: SegmentMuxer
  private let timeBase: AVRational
  private let codec: String?
  private var boundaries: SegmentBoundaries

  init(parameters: CodecParameters, timeBase: AVRational, output: RenditionOutput, destination: SegmentDestination)
    throws
  {
    muxer = try SegmentMuxer(
      output: output, video: nil, videoTimeBase: nil, audio: parameters, audioTimeBase: timeBase,
      destination: destination)
    self.timeBase = timeBase
    boundaries = SegmentBoundaries(segmentDuration: output.segmentDuration)
    codec = audioCodecString(parameters.pointer)
  }

  /// Packets wait until the video has reached their time (`release`), so that
  /// audio past the video's end can be left out: every playlist of the
  /// presentation then covers the same time (RFC 8216bis §6.2.4). Demuxers
  /// interleave by time, so few wait.
  private var waiting: [Packet] = []
  private var released = 0

  func write(_ packet: Packet) throws {
    waiting.append(packet)
  }

  /// Muxes the waiting packets that start before `videoSeconds` (from the video's start).
  func release(before videoSeconds: Double) throws {
    while released < waiting.count, seconds(waiting[released]) < videoSeconds {
      try mux(waiting[released])
      released += 1
    }
    if released > 64 {
      waiting.removeFirst(released)
      released = 0
    }
  }

  /// Ends with the video (`videoEnd`, nil when unknown): later audio is left out.
  func finish(videoEnd: Double?) throws -> WrittenStreamFacts {
    try release(before: videoEnd ?? .infinity)
    waiting.removeAll()
    released = 0
    try muxer.finish()
    return WrittenStreamFacts(codecs: codec.map { [$0] } ?? [], width: 0, height: 0, frameRate: 0, videoFrames: 0)
  }

  private func seconds(_ packet: Packet) -> Double { Double(packet.pointer.pointee.pts) * timeBase.seconds }

  private func mux(_ packet: Packet) throws {
    try muxer.writeAudioOnly(packet, opensSegment: boundaries.reaches(seconds(packet)))
  }
}
