import HLSPackCore
internal import CFFmpeg

/// An alternate audio rendition's own segments: audio-only, cut at the first
/// audio frame at or after every multiple of the segment duration, so they
/// line up with the video segments.
final class AudioRenditionMuxer {
  private let muxer: SegmentMuxer
  private let timeBase: AVRational
  private let segmentDuration: Double
  private let codec: String?
  private var boundary = 1

  init(parameters: CodecParameters, timeBase: AVRational, segmentDuration: Double, container: Container, bitExact: Bool, sink: SegmentSink) throws {
    muxer = try SegmentMuxer(
      container: container, bitExact: bitExact, video: nil, videoTimeBase: nil, audio: parameters, audioTimeBase: timeBase,
      sink: sink)
    self.timeBase = timeBase
    self.segmentDuration = segmentDuration
    codec = audioCodecString(parameters.pointer)
  }

  func write(_ packet: Packet) throws {
    let seconds = Double(packet.pointer.pointee.pts) * timeBase.seconds
    var opens = false
    if seconds >= Double(boundary) * segmentDuration - 0.0005 {
      opens = true
      boundary = Int((seconds + 0.0005) / segmentDuration) + 1
    }
    try muxer.writeAudioOnly(packet, opensSegment: opens)
  }

  func finish() throws -> WrittenStreamFacts {
    try muxer.finish()
    return WrittenStreamFacts(codecs: codec.map { [$0] } ?? [], width: 0, height: 0, frameRate: 0, videoFrames: 0)
  }
}
