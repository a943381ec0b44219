internal import CFFmpeg
import HLSPackCore

/// One rendition's muxer, kept for the rendition's whole life: in MPEG-TS the
/// continuity counters and timestamps run on across segments (RFC 8216bis §3);
/// in fMP4 the mov muxer writes the init segment once and one moof+mdat
/// fragment per segment. A segment is cut before every video keyframe that
/// opens a segment, and audio is interleaved by decode time so each segment
/// holds its own audio. An audio-only rendition is cut on its own packets.
/// What differs by container is in its `ContainerRules`.
final class SegmentMuxer {
  /// Segment bytes go to the sink in parts of about this size, so memory does
  /// not grow with the segment (a 20 Mb/s, 10 s segment is 25 MB). fMP4
  /// fragments come whole: the mov muxer holds a fragment until it is flushed.
  static let partSize = 512 * 1024

  private let formatContext: OutputFormatContext
  private let output: MemoryOutput
  private let rules: ContainerRules
  private let videoIndex: Int32?
  private let audioIndex: Int32?
  private let videoTimeBase: AVRational?
  private let audioTimeBase: AVRational?
  /// The stream whose timestamps time the segments: video, else audio.
  private let primaryIndex: Int32
  private let sink: SegmentSink
  private var pendingAudio: [Packet] = []
  private var segmentStart: Int64?
  private var lastPTS = Int64.min
  /// Audio-only: where the last frame ends, when the container states it.
  private var lastAudioEnd: Int64?
  private var intervals: FrameIntervals?
  /// Packets of the primary stream written so far.
  private(set) var frames = 0
  private(set) var firstKeyframe: [UInt8] = []
  /// AVIO position where the current segment began, so keyframe offsets are segment-relative.
  private var segmentStartPosition: Int64 = 0
  /// Bytes of the current segment already handed to the sink.
  private var sentBytes = 0
  private var keyframes: [KeyframeRange] = []
  /// MPEG-TS: where the program tables that open the current segment end, once its first part was measured.
  private var tablesEnd = 0
  /// Index of the segment being written, for per-segment keys and IVs.
  private var segmentIndex = 0
  private let encryptor: SampleEncryptor?
  private let videoKind: SampleKind?
  private let audioKind: SampleKind?

  init(
    output: RenditionOutput, video: CodecParameters?, videoTimeBase: AVRational?, audio: CodecParameters?,
    audioTimeBase: AVRational?, videoSideData: CopiedVideoSideData = CopiedVideoSideData(),
    destination: SegmentDestination
  ) throws {
    sink = destination.sink
    let encryptor = destination.sampleEncryptor
    self.encryptor = encryptor
    videoKind = video?.pointer.pointee.codec_id == AV_CODEC_ID_H264 ? .h264 : nil
    switch audio?.pointer.pointee.codec_id {
    case AV_CODEC_ID_AAC?: audioKind = .aac
    case AV_CODEC_ID_AC3?: audioKind = .ac3
    default: audioKind = nil
    }
    if encryptor != nil,
      output.container != .ts || (video != nil && videoKind == nil) || (audio != nil && audioKind == nil)
    {
      throw MediaError("SAMPLE-AES needs MPEG-TS with H.264 video and AAC or AC-3 audio")
    }
    let rules: ContainerRules =
      output.container == .ts ? TransportStreamRules(sampleEncryptor: encryptor) : FragmentedMP4Rules()
    self.rules = rules
    self.videoTimeBase = videoTimeBase
    self.audioTimeBase = audioTimeBase
    self.output = try MemoryOutput()
    formatContext = try OutputFormatContext(format: rules.formatName)
    let ctx = formatContext.pointer
    ctx.pointee.pb = self.output.context
    ctx.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
    // Timestamps are made non-negative here (MediaClock.timelineOffset; in fMP4
    // also the track origins), not by libavformat, whose shift would depend on
    // which packet happened to come first.
    ctx.pointee.avoid_negative_ts = 0
    if output.reproducible { ctx.pointee.flags |= AVFMT_FLAG_BITEXACT }

    videoIndex = try video.flatMap { video in
      try videoTimeBase.map { try Self.addStream(ctx, video, $0, rules, isVideo: true, sideData: videoSideData) }
    }
    audioIndex = try audio.flatMap { audio in
      try audioTimeBase.map {
        try Self.addStream(ctx, audio, $0, rules, isVideo: false, sideData: CopiedVideoSideData())
      }
    }
    guard let primary = videoIndex ?? audioIndex else {
      throw MediaError("a rendition needs a video or an audio stream")
    }
    primaryIndex = primary
    try rules.writeHeader(ctx, output: self.output)
  }

  private var ctx: UnsafeMutablePointer<AVFormatContext> { formatContext.pointer }

  private static func addStream(
    _ ctx: UnsafeMutablePointer<AVFormatContext>, _ parameters: CodecParameters, _ timeBase: AVRational,
    _ rules: ContainerRules, isVideo: Bool, sideData: CopiedVideoSideData
  ) throws -> Int32 {
    guard let stream = avformat_new_stream(ctx, nil) else {
      throw FFmpegError(call: "avformat_new_stream", code: hlspack_averror(ENOMEM))
    }
    try check(avcodec_parameters_copy(stream.pointee.codecpar, parameters.pointer), "avcodec_parameters_copy")
    stream.pointee.time_base = timeBase
    try rules.configure(stream, isVideo: isVideo, sideData: sideData)
    return stream.pointee.index
  }

  private func toMuxerTime(_ packet: Packet, from timeBase: AVRational, stream: Int32) {
    let p = packet.pointer
    av_packet_rescale_ts(p, timeBase, ctx.pointee.streams[Int(stream)].unsafelyUnwrapped.pointee.time_base)
    let offset = firstPicture(in: stream)
    p.pointee.pts += offset
    p.pointee.dts += offset
    p.pointee.stream_index = stream
  }

  /// Audio-only renditions: writes an audio packet, cutting a segment before
  /// it when `opensSegment`.
  func writeAudioOnly(_ packet: Packet, opensSegment: Bool) throws {
    guard videoIndex == nil, let audioIndex, let audioTimeBase else { return }
    toMuxerTime(packet, from: audioTimeBase, stream: audioIndex)
    try advance(packet.pointer.pointee.pts, opensSegment: opensSegment)
    lastAudioEnd = rules.audioEnd(pts: packet.pointer.pointee.pts, duration: packet.pointer.pointee.duration)
    try encrypt(packet, kind: audioKind)
    try mux(packet, "audio")
  }

  /// Cuts when asked and keeps the primary stream's timing.
  private func advance(_ pts: Int64, opensSegment: Bool) throws {
    if opensSegment, let start = segmentStart { try cut(start: start, end: pts) }
    if segmentStart == nil { segmentStart = pts }
    if intervals == nil {
      // The source's timestamps were rounded to its own time base: one tick of it is noise.
      let source = videoTimeBase ?? audioTimeBase ?? primaryTimeBase
      intervals = FrameIntervals(tolerance: av_rescale_q(1, source, primaryTimeBase))
    }
    intervals?.add(pts)
    lastPTS = max(lastPTS, pts)
    frames += 1
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
    guard let videoIndex, let videoTimeBase else { return }
    if frames == 0 { firstKeyframe = packet.bytes }
    toMuxerTime(packet, from: videoTimeBase, stream: videoIndex)
    let p = packet.pointer
    try writeAudio(before: p.pointee.dts)
    try advance(p.pointee.pts, opensSegment: opensSegment)
    try encrypt(packet, kind: videoKind)
    let pts = p.pointee.pts
    if let written = try rules.muxVideo(packet, in: ctx, mux: { try mux(packet, "video") }) {
      keyframes.append(
        KeyframeRange(
          offset: Int(written.lowerBound - segmentStartPosition), length: Int(written.count), ptsTicks: toTicks(pts)))
      trimFirstKeyframe()
    }
  }

  /// Writes a packet, then passes a full part on to the sink.
  private func mux(_ packet: Packet, _ stream: String) throws {
    rules.prepare(packet, in: ctx)
    try check(av_write_frame(ctx, packet.pointer), "av_write_frame(\(stream))")
    if output.byteCount >= Self.partSize { try sendPart() }
  }

  /// Writes what is left and emits the last segment, which runs to the end of
  /// its last frame.
  func finish() throws {
    // Audio that starts after the last video frame would play past the last
    // EXTINF and raise BANDWIDTH: it is left out, as audio before the first frame is.
    try writeAudio(before: videoIndex == nil || frames == 0 ? .max : lastPTS + frameTicks)
    pendingAudio.removeAll()
    try check(av_write_trailer(ctx), "av_write_trailer")
    guard let start = segmentStart else { return }
    try emit(start: start, end: lastAudioEnd ?? lastPTS + frameTicks)
  }

  /// The frame interval as written (the fastest frames'; see `FrameIntervals`).
  var frameTicks: Int64 {
    Int64((intervals?.interval ?? 0).rounded())
  }

  /// The maximum frame rate, as FRAME-RATE declares it.
  var frameRate: Double {
    guard let interval = intervals?.interval, interval > 0 else { return 0 }
    guard primaryTimeBase.seconds > 0 else { return 0 }
    // Rounded timestamps put a 29.97 fps file in milliseconds at 29.968: the rate it rounds from.
    let measured = 1 / (interval * primaryTimeBase.seconds)
    return FrameRate.nominal(near: measured)?.value ?? measured
  }

  private var primaryTimeBase: AVRational { timeBase(of: primaryIndex) }

  /// Where the first picture sits on `stream`'s muxer clock.
  private func firstPicture(in stream: Int32) -> Int64 {
    HLSPackMedia.firstPicture(in: ctx, stream: stream)
  }

  private func timeBase(of stream: Int32) -> AVRational {
    ctx.pointee.streams[Int(stream)].unsafelyUnwrapped.pointee.time_base
  }

  /// A primary-stream timestamp in 90 kHz ticks (MPEG-TS time is already 90 kHz).
  private func toTicks(_ pts: Int64) -> Int64 {
    av_rescale_q(pts, primaryTimeBase, AVRational(num: 1, den: Int32(MediaClock.ticksPerSecond)))
  }

  /// Writes the queued audio that decodes before `dts` (a video timestamp).
  /// Tracks have their own time bases in MP4, so compare as times.
  private func writeAudio(before dts: Int64) throws {
    guard let audioIndex else { return }
    let audioTimeBase = ctx.pointee.streams[Int(audioIndex)].unsafelyUnwrapped.pointee.time_base
    var written = 0
    for packet in pendingAudio {
      if dts != .max, av_compare_ts(packet.pointer.pointee.dts, audioTimeBase, dts, primaryTimeBase) >= 0 { break }
      try encrypt(packet, kind: audioKind)
      try mux(packet, "audio")
      written += 1
    }
    pendingAudio.removeFirst(written)
  }

  private func cut(start: Int64, end: Int64) throws {
    // Flush the PES buffers (TS) or the fragment (fMP4) into this segment.
    try check(av_write_frame(ctx, nil), "av_write_frame(flush)")
    try emit(start: start, end: end)
    segmentStart = end
    try rules.segmentOpened(in: ctx)
  }

  private func encrypt(_ packet: Packet, kind: SampleKind?) throws {
    guard let encryptor, let kind else { return }
    if let encrypted = try encryptor.encrypt(packet.bytes, kind: kind, segment: segmentIndex) {
      try packet.replacePayload(with: encrypted)
    }
  }

  /// Hands what was muxed since the last part to the sink, SAMPLE-AES-adjusted.
  private func sendPart() throws {
    var bytes = output.take()
    guard !bytes.isEmpty else { return }
    let measuring = sentBytes == 0 && videoIndex != nil && segmentStart != nil
    switch try rules.finishPart(&bytes, segment: segmentIndex, in: ctx, measuringFirstSample: measuring) {
    case .endsAt(let end)?:
      if let start = segmentStart { keyframes = [KeyframeRange(offset: 0, length: end, ptsTicks: toTicks(start))] }
    case .startsAt(let end)?:
      // This part opens the segment, so its offsets are the segment's.
      tablesEnd = end
      trimFirstKeyframe()
    case nil: break
    }
    sentBytes += bytes.count
    try sink.acceptBytes(bytes)
  }

  /// Starts the segment's first I-frame range after the tables that open the
  /// segment. Also run when the range is recorded: an IDR larger than a part
  /// is recorded after its first part was measured.
  private func trimFirstKeyframe() {
    guard let first = keyframes.first, first.offset < tablesEnd, first.offset + first.length > tablesEnd else { return }
    keyframes[0] = KeyframeRange(
      offset: tablesEnd, length: first.offset + first.length - tablesEnd, ptsTicks: first.ptsTicks)
  }

  private func emit(start: Int64, end: Int64) throws {
    if let initialization = try rules.takeInitialization(in: ctx) {
      try sink.acceptInitialization(initialization)
    }
    try sendPart()
    segmentStartPosition = avio_tell(ctx.pointee.pb)
    defer {
      keyframes = []
      tablesEnd = 0
      sentBytes = 0
      segmentIndex += 1
    }
    guard sentBytes > 0 else { return }
    let start90k = toTicks(start)
    try sink.accept(MediaSegment(startTicks: start90k, durationTicks: toTicks(end) - start90k, keyframes: keyframes))
  }
}
