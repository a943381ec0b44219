import HLSPackCore
internal import CFFmpeg

/// One rendition's MPEG-TS muxer, kept for the rendition's whole life so that
/// continuity counters and timestamps run on across segments (conformance C4).
/// A segment is cut before every video keyframe that opens a segment, and
/// audio is interleaved by decode time so each segment holds its own audio.
final class TSSegmentMuxer {
  /// All timestamps are shifted by this much so that B-frame DTS and AAC
  /// priming never go negative; the same for every rung, so segments align.
  static let timelineOffset: Int64 = 90_000

  private var context: UnsafeMutablePointer<AVFormatContext>?
  private let output: MemoryOutput
  private let videoIndex: Int32
  private let audioIndex: Int32?
  private let videoTimeBase: AVRational
  private let audioTimeBase: AVRational?
  private let sink: SegmentSink
  private var pendingAudio: [Packet] = []
  private var segmentStart: Int64?
  private var lastVideoPTS = Int64.min
  private var firstVideoPTS: Int64?
  private(set) var videoFrames = 0
  private(set) var firstKeyframe: [UInt8] = []

  init(bitExact: Bool, video: CodecParameters, videoTimeBase: AVRational, audio: CodecParameters?, audioTimeBase: AVRational?, sink: SegmentSink) throws {
    self.sink = sink
    self.videoTimeBase = videoTimeBase
    self.audioTimeBase = audioTimeBase
    output = try MemoryOutput()
    var ctx: UnsafeMutablePointer<AVFormatContext>?
    try check(avformat_alloc_output_context2(&ctx, nil, "mpegts", nil), "avformat_alloc_output_context2(mpegts)")
    guard let ctx else { throw FFmpegError(call: "avformat_alloc_output_context2", code: hlspack_averror(ENOMEM)) }
    context = ctx
    ctx.pointee.pb = output.context
    ctx.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
    // Timestamps are made non-negative here (timelineOffset), not by libavformat,
    // whose shift would depend on which packet happened to come first.
    ctx.pointee.avoid_negative_ts = 0
    if bitExact { ctx.pointee.flags |= AVFMT_FLAG_BITEXACT }

    videoIndex = try Self.addStream(ctx, video, videoTimeBase)
    if let audio, let audioTimeBase {
      audioIndex = try Self.addStream(ctx, audio, audioTimeBase)
    } else {
      audioIndex = nil
    }
    try check(avformat_write_header(ctx, nil), "avformat_write_header(mpegts)")
  }

  deinit {
    // The AVIOContext belongs to `output`; never let libavformat close it.
    context?.pointee.pb = nil
    avformat_free_context(context)
  }

  private var ctx: UnsafeMutablePointer<AVFormatContext> { context.unsafelyUnwrapped }

  private static func addStream(_ ctx: UnsafeMutablePointer<AVFormatContext>, _ parameters: CodecParameters, _ timeBase: AVRational) throws -> Int32 {
    guard let stream = avformat_new_stream(ctx, nil) else {
      throw FFmpegError(call: "avformat_new_stream", code: hlspack_averror(ENOMEM))
    }
    try check(avcodec_parameters_copy(stream.pointee.codecpar, parameters.pointer), "avcodec_parameters_copy")
    stream.pointee.time_base = timeBase
    return stream.pointee.index
  }

  private func toMuxerTime(_ packet: Packet, from timeBase: AVRational, stream: Int32) {
    let p = packet.pointer
    av_packet_rescale_ts(p, timeBase, ctx.pointee.streams[Int(stream)].unsafelyUnwrapped.pointee.time_base)
    p.pointee.pts += Self.timelineOffset
    p.pointee.dts += Self.timelineOffset
    p.pointee.stream_index = stream
  }

  /// Queues an encoded audio packet; it is written once video has reached its time.
  func writeAudio(_ packet: Packet) throws {
    guard let audioIndex, let audioTimeBase else { return }
    toMuxerTime(packet, from: audioTimeBase, stream: audioIndex)
    pendingAudio.append(packet)
  }

  /// Writes an encoded video packet. `opensSegment` is true for the forced IDR
  /// at a segment boundary.
  func writeVideo(_ packet: Packet, opensSegment: Bool) throws {
    if videoFrames == 0 { firstKeyframe = packet.bytes }
    toMuxerTime(packet, from: videoTimeBase, stream: videoIndex)
    let p = packet.pointer
    try writeAudio(before: p.pointee.dts)
    if opensSegment, let start = segmentStart {
      try cut(start: start, end: p.pointee.pts)
    }
    if segmentStart == nil { segmentStart = p.pointee.pts }
    firstVideoPTS = min(firstVideoPTS ?? p.pointee.pts, p.pointee.pts)
    lastVideoPTS = max(lastVideoPTS, p.pointee.pts)
    videoFrames += 1
    try check(av_write_frame(ctx, p), "av_write_frame(video)")
  }

  /// Writes what is left and emits the last segment, which runs to the end of
  /// its last frame.
  func finish() throws {
    try writeAudio(before: .max)
    try check(av_write_trailer(ctx), "av_write_trailer")
    guard let start = segmentStart else { return }
    try emit(start: start, end: lastVideoPTS + frameTicks)
  }

  /// The frame interval as written, from the first and last timestamps.
  var frameTicks: Int64 {
    guard let first = firstVideoPTS, videoFrames > 1 else { return 0 }
    return (lastVideoPTS - first + Int64(videoFrames - 1) / 2) / Int64(videoFrames - 1)
  }

  var frameRate: Double {
    guard let first = firstVideoPTS, videoFrames > 1, lastVideoPTS > first else { return 0 }
    return Double(videoFrames - 1) * Double(MediaClock.ticksPerSecond) / Double(lastVideoPTS - first)
  }

  private func writeAudio(before dts: Int64) throws {
    var written = 0
    for packet in pendingAudio {
      guard packet.pointer.pointee.dts < dts else { break }
      try check(av_write_frame(ctx, packet.pointer), "av_write_frame(audio)")
      written += 1
    }
    pendingAudio.removeFirst(written)
  }

  private func cut(start: Int64, end: Int64) throws {
    // Flush the PES buffers into this segment, then make the next one open
    // with PAT/PMT again.
    try check(av_write_frame(ctx, nil), "av_write_frame(flush)")
    try emit(start: start, end: end)
    try setOption(ctx.pointee.priv_data, "mpegts_flags", "+resend_headers")
    segmentStart = end
  }

  private func emit(start: Int64, end: Int64) throws {
    let bytes = output.take()
    guard !bytes.isEmpty else { return }
    try sink.accept(MediaSegment(bytes: bytes, startTicks: start, durationTicks: end - start))
  }
}
