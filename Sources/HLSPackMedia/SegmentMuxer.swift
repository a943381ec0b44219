import HLSPackCore
internal import CFFmpeg

/// One rendition's muxer, kept for the rendition's whole life: in MPEG-TS the
/// continuity counters and timestamps run on across segments (conformance C4);
/// in fMP4 the mov muxer writes the init segment once and one moof+mdat
/// fragment per segment. A segment is cut before every video keyframe that
/// opens a segment, and audio is interleaved by decode time so each segment
/// holds its own audio. An audio-only rendition is cut on its own packets.
final class SegmentMuxer {
  /// How far the TS clock (PCR) runs behind the decode times: 0.7 s, as in the ffmpeg CLI.
  static let muxDelayMicroseconds = 700_000
  static let videoPID: Int32 = 0x100
  static let audioPID: Int32 = 0x101
  /// Segment bytes go to the sink in parts of about this size, so memory does
  /// not grow with the segment (a 20 Mb/s, 10 s segment is 25 MB). fMP4
  /// fragments come whole: the mov muxer holds a fragment until it is flushed.
  static let partSize = 512 * 1024

  private let formatContext: OutputFormatContext
  private let output: MemoryOutput
  private let videoIndex: Int32?
  private let audioIndex: Int32?
  private let videoTimeBase: AVRational?
  private let audioTimeBase: AVRational?
  /// The stream whose timestamps time the segments: video, else audio.
  private let primaryIndex: Int32
  private let sink: SegmentSink
  private let container: Container
  private var pendingAudio: [Packet] = []
  private var segmentStart: Int64?
  private var lastPTS = Int64.min
  /// fMP4 audio-only: where the last frame ends as its trun says, which the
  /// encoder shortens to the samples the source had (MPEG-TS states no
  /// durations: there the last frame lasts a whole frame).
  private var lastAudioEnd: Int64?
  private var intervals: FrameIntervals?
  /// Packets of the primary stream written so far.
  private(set) var frames = 0
  private(set) var firstKeyframe: [UInt8] = []
  /// AVIO position where the current segment began, so keyframe offsets are segment-relative.
  private var segmentStartPosition: Int64 = 0
  /// Bytes of the current segment already handed to the sink.
  private var sentBytes = 0
  /// fMP4: the init segment, handed over with the first segment, once every
  /// track's origin is known and its edit list can be written.
  private var initialization: [UInt8]?
  /// fMP4: where each stream's written timestamps count from (its own time
  /// base): its first decode time, or the first picture if it starts later.
  /// Each track's tfdt then starts at 0 (or at its delay), and its edit list
  /// skips what it has before the first picture (B-frame delay, AAC priming).
  private var trackOrigins: [Int64?] = []
  private var keyframes: [KeyframeRange] = []
  /// Index of the segment being written, for per-segment keys and IVs.
  private var segmentIndex = 0
  private let encryptor: SampleEncryptor?
  private let videoKind: SampleKind?
  private let audioKind: SampleKind?

  init(
    container: Container, bitExact: Bool, video: CodecParameters?, videoTimeBase: AVRational?, audio: CodecParameters?,
    audioTimeBase: AVRational?, displayMatrix: [Int32]? = nil, destination: SegmentDestination
  ) throws {
    sink = destination.sink
    self.container = container
    encryptor = destination.sampleEncryptor
    videoKind = video?.pointer.pointee.codec_id == AV_CODEC_ID_H264 ? .h264 : nil
    switch audio?.pointer.pointee.codec_id {
    case AV_CODEC_ID_AAC?: audioKind = .aac
    case AV_CODEC_ID_AC3?: audioKind = .ac3
    default: audioKind = nil
    }
    self.videoTimeBase = videoTimeBase
    self.audioTimeBase = audioTimeBase
    output = try MemoryOutput()
    let format = container == .ts ? "mpegts" : "mp4"
    formatContext = try OutputFormatContext(format: format)
    let ctx = formatContext.pointer
    ctx.pointee.pb = output.context
    ctx.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
    // Timestamps are made non-negative here (MediaClock.timelineOffset; in fMP4
    // also `trackOrigins`), not by libavformat, whose shift would depend on
    // which packet happened to come first.
    ctx.pointee.avoid_negative_ts = 0
    if bitExact { ctx.pointee.flags |= AVFMT_FLAG_BITEXACT }

    if encryptor != nil, container != .ts || (video != nil && videoKind == nil) || (audio != nil && audioKind == nil) {
      throw MediaError("SAMPLE-AES needs MPEG-TS with H.264 video and AAC or AC-3 audio")
    }
    if let video, let videoTimeBase {
      let index = try Self.addStream(ctx, video, videoTimeBase)
      videoIndex = index
      if container == .fmp4, video.pointer.pointee.codec_id == AV_CODEC_ID_HEVC {
        // Parameter sets in the sample entry (conformance C7).
        ctx.pointee.streams[Int(index)].unsafelyUnwrapped.pointee.codecpar.pointee.codec_tag = Self.fourCC("hvc1")
      }
      if container == .fmp4, let displayMatrix {
        // The mov muxer writes it as the track header's matrix (MPEG-TS has no place for one).
        try Self.attach(displayMatrix, to: ctx.pointee.streams[Int(index)].unsafelyUnwrapped)
      }
    } else {
      videoIndex = nil
    }
    if let audio, let audioTimeBase {
      audioIndex = try Self.addStream(ctx, audio, audioTimeBase)
    } else {
      audioIndex = nil
    }
    guard let primary = videoIndex ?? audioIndex else {
      throw MediaError("a rendition needs a video or an audio stream")
    }
    primaryIndex = primary
    if container == .ts {
      // Fixed PIDs (the TS muxer takes a stream's id as its PID), so the PMT can be rewritten by PID.
      if let videoIndex { ctx.pointee.streams[Int(videoIndex)].unsafelyUnwrapped.pointee.id = Self.videoPID }
      if let audioIndex { ctx.pointee.streams[Int(audioIndex)].unsafelyUnwrapped.pointee.id = Self.audioPID }
    }
    var options: OpaquePointer?
    defer { av_dict_free(&options) }
    if container == .ts {
      // The clock (PCR) runs this far behind the decode times, as the ffmpeg
      // CLI's -muxdelay has it, so every access unit arrives before it is due
      // (ISO/IEC 13818-1 T-STD). libavformat's default, 0, put each PCR at its
      // own PES's DTS, so every frame arrived late. The timestamps stay as
      // they are (copyts): the PCR starts at the first DTS less the delay,
      // which MediaClock.timelineOffset keeps positive.
      ctx.pointee.max_delay = Int32(Self.muxDelayMicroseconds)
      av_dict_set(&options, "mpegts_copyts", "1", 0)
      // Video PES packets state their length whenever it fits the 16-bit
      // field (the muxer writes 0, unbounded, only above 65535 bytes), as
      // ISO/IEC 13818-1 §2.4.3.7 allows and Shaka Packager writes them. With
      // libavformat's default (0 for every video PES) a demuxer can only
      // close a PES when the next one starts: VLC 3.0 never showed the last
      // picture of a stream, and FFmpeg's SAMPLE-AES decryption lost one
      // more access unit at the end of the file.
      av_dict_set(&options, "omit_video_pes_length", "0", 0)
    }
    if container == .fmp4 {
      // The init segment at write_header, then one moof+mdat per flush; no mfra.
      av_dict_set(&options, "movflags", "frag_custom+empty_moov+default_base_moof+skip_trailer+frag_discont", 0)
      // The mov muxer's own edit lists cannot live in an empty moov (its shift of
      // B-frame DTS onto the first PTS would start video 2 frames late); `emit`
      // adds them to the init segment once every track's origin is known
      // (`trackOrigins`). Moving decode times up to the first PTS instead (trun
      // version 1, negative offsets) was measured and left out: FFmpeg 5.1 and
      // 8.1 then present the video 2 frames late.
      av_dict_set(&options, "use_editlist", "0", 0)
    }
    try check(avformat_write_header(ctx, &options), "avformat_write_header(\(format))")
    if let unused = av_dict_get(options, "", nil, AV_DICT_IGNORE_SUFFIX) {
      throw MediaError("\(format) muxer ignored option \(String(cString: unused.pointee.key))")
    }
    if container == .fmp4 {
      initialization = output.take()
      trackOrigins = Array(repeating: nil, count: Int(ctx.pointee.nb_streams))
    }
  }

  /// `matrix`: 3×3, 16.16 fixed point, row by row; anything else is left out.
  private static func attach(_ matrix: [Int32], to stream: UnsafeMutablePointer<AVStream>) throws {
    guard matrix.count == 9 else { return }
    let size = matrix.count * MemoryLayout<Int32>.size
    // av_malloc'd: the stream owns and frees it once added (not when adding fails).
    guard let data = av_malloc(size) else {
      throw FFmpegError(call: "av_malloc", code: hlspack_averror(ENOMEM))
    }
    data.copyMemory(from: matrix, byteCount: size)
    let result = av_stream_add_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, data.assumingMemoryBound(to: UInt8.self), size)
    if result < 0 {
      av_free(data)
      try check(result, "av_stream_add_side_data(display matrix)")
    }
  }

  private static func fourCC(_ code: String) -> UInt32 {
    code.utf8.reversed().reduce(0) { $0 << 8 | UInt32($1) }
  }

  private var ctx: UnsafeMutablePointer<AVFormatContext> { formatContext.pointer }

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
    let duration = packet.pointer.pointee.duration
    lastAudioEnd = container == .fmp4 && duration > 0 ? packet.pointer.pointee.pts + duration : nil
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
    if container == .ts, packet.isKeyframe {
      // PAT/PMT right before every IDR: each I-frame byte range then decodes on its own.
      try setOption(ctx.pointee.priv_data, "mpegts_flags", "+resend_headers")
      let begin = avio_tell(ctx.pointee.pb) - segmentStartPosition
      let pts = p.pointee.pts
      try mux(packet, "video")
      let end = avio_tell(ctx.pointee.pb) - segmentStartPosition
      keyframes.append(KeyframeRange(offset: Int(begin), length: Int(end - begin), ptsTicks: toTicks(pts)))
      return
    }
    try mux(packet, "video")
  }

  /// Writes a packet, then passes a full part on to the sink.
  private func mux(_ packet: Packet, _ stream: String) throws {
    if container == .fmp4 {
      let p = packet.pointer
      let index = Int(p.pointee.stream_index)
      let origin = trackOrigins[index] ?? min(p.pointee.dts, firstPicture(in: Int32(index)))
      trackOrigins[index] = origin
      p.pointee.pts -= origin
      p.pointee.dts -= origin
    }
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
    av_rescale_q(MediaClock.timelineOffset, AVRational(num: 1, den: Int32(MediaClock.ticksPerSecond)), timeBase(of: stream))
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
    // Every segment opens with the tables, audio-only ones too (conformance C5).
    if container == .ts { try setOption(ctx.pointee.priv_data, "mpegts_flags", "+resend_headers") }
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
    if container == .ts { TransportStreamTableOrder.putPATFirst(&bytes) }
    if let encryptor {
      let audio = audioIndex.map { ctx.pointee.streams[Int($0)].unsafelyUnwrapped.pointee }
      let config = audio.map { copiedBytes($0.codecpar.pointee.extradata, count: $0.codecpar.pointee.extradata_size) } ?? []
      try encryptor.adjust(
        &bytes, segment: segmentIndex, audioPID: audio.map { _ in UInt16(Self.audioPID) }, audioConfig: config)
    }
    // fMP4: the fragment arrives whole; only its first sample can be reached without another moof.
    if container == .fmp4, sentBytes == 0, videoIndex != nil, let start = segmentStart,
      let end = FragmentLayout.firstSampleEnd(bytes)
    {
      keyframes = [KeyframeRange(offset: 0, length: end, ptsTicks: toTicks(start))]
    }
    sentBytes += bytes.count
    try sink.acceptBytes(bytes)
  }

  private func emit(start: Int64, end: Int64) throws {
    if let initialization {
      // A track that has not started yet counts from the first picture.
      let origins = trackOrigins.indices.map { trackOrigins[$0] ?? firstPicture(in: Int32($0)) }
      trackOrigins = origins
      self.initialization = nil
      // In each stream's time base, which the mov muxer made its track's timescale.
      let skipped = origins.indices.map { index in
        let timeBase = timeBase(of: Int32(index))
        return (value: (firstPicture(in: Int32(index)) - origins[index]) * Int64(timeBase.num), timescale: Int64(timeBase.den))
      }
      do {
        try sink.acceptInitialization(
          skipped.allSatisfy { $0.value == 0 }
            ? initialization : InitSegmentEditList.inserting(mediaTimes: skipped, into: initialization))
      } catch let error as CBCSError {
        throw MediaError("fMP4 init segment: \(error)")
      }
    }
    try sendPart()
    segmentStartPosition = avio_tell(ctx.pointee.pb)
    defer {
      keyframes = []
      sentBytes = 0
      segmentIndex += 1
    }
    guard sentBytes > 0 else { return }
    let start90k = toTicks(start)
    try sink.accept(MediaSegment(startTicks: start90k, durationTicks: toTicks(end) - start90k, keyframes: keyframes))
  }
}
