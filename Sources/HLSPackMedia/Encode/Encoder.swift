internal import CFFmpeg
import HLSPackCore

/// An opened encoder. Frames in, packets out.
final class Encoder {
  private var context: UnsafeMutablePointer<AVCodecContext>?

  private init(context: UnsafeMutablePointer<AVCodecContext>) {
    self.context = context
  }

  deinit { avcodec_free_context(&context) }

  var ctx: UnsafeMutablePointer<AVCodecContext> { context.unsafelyUnwrapped }
  var timeBase: AVRational { ctx.pointee.time_base }

  /// libx264, libx265 or libsvtav1 for one rung, with IDR (AV1: key) frames
  /// only where the caller forces them (and at the GOP limit), closed GOPs
  /// and no scene-cut keyframes, so that every rung cuts at the same
  /// presentation times.
  /// `globalHeader`: parameter sets in extradata, as fMP4 sample entries need.
  /// `hdr`: an HDR source's rung, 10-bit HEVC Main 10 with its HDR10 metadata.
  static func video(
    rung: VideoRung, rate: FrameRate, gopFrames: Int, colour: ColourDescription, bitExact: Bool, threads: Int,
    globalHeader: Bool, hdr: HDRMetadata? = nil
  ) throws -> Encoder {
    let name = try encoderName(rung)
    guard let codec = avcodec_find_encoder_by_name(name) else {
      throw MediaError("this FFmpeg has no \(name) encoder")
    }
    let encoder = try allocate(codec)
    let ctx = encoder.ctx
    ctx.pointee.width = Int32(rung.width)
    ctx.pointee.height = Int32(rung.height)
    ctx.pointee.pix_fmt = hdr == nil ? AV_PIX_FMT_YUV420P : AV_PIX_FMT_YUV420P10LE
    ctx.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
    ctx.pointee.color_primaries = colour.primaries
    ctx.pointee.color_trc = colour.transfer
    ctx.pointee.colorspace = colour.matrix
    // libswscale writes 4:2:0 in limited range, full-range sources included.
    ctx.pointee.color_range = AVCOL_RANGE_MPEG
    ctx.pointee.time_base = AVRational(num: Int32(rate.denominator), den: Int32(rate.numerator))
    ctx.pointee.framerate = AVRational(num: Int32(rate.numerator), den: Int32(rate.denominator))
    ctx.pointee.bit_rate = Int64(rung.bitrate)
    if let maxrate = rung.maxrate {
      ctx.pointee.rc_max_rate = Int64(maxrate)
      ctx.pointee.rc_buffer_size = Int32(clamping: rung.bufsize ?? 2 * maxrate)
    } else if let bufsize = rung.bufsize {
      ctx.pointee.rc_buffer_size = Int32(clamping: bufsize)
    }
    ctx.pointee.gop_size = Int32(gopFrames)
    ctx.pointee.keyint_min = Int32(gopFrames)
    // With frame threads, x264's VBV reads the size estimates of frames other
    // threads are still encoding, so output depends on timing: a reproducible
    // run uses one thread per rung (the rungs still run in parallel).
    ctx.pointee.thread_count = bitExact ? 1 : Int32(clamping: threads)
    if bitExact { ctx.pointee.flags |= AV_CODEC_FLAG_BITEXACT }
    if globalHeader { ctx.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
    try encoder.setCodecOptions(rung: rung, bitExact: bitExact, threads: threads, hdr: hdr)
    try check(avcodec_open2(ctx, codec, nil), "avcodec_open2(\(name) for \(rung.name))")
    return encoder
  }

  /// The encoder's extradata (parameter sets, AudioSpecificConfig).
  var extradata: [UInt8] {
    copiedBytes(ctx.pointee.extradata, count: ctx.pointee.extradata_size)
  }

  /// FFmpeg's native AAC-LC or AC-3 encoder.
  static func audio(_ settings: AudioSettings, bitExact: Bool, globalHeader: Bool) throws -> Encoder {
    let id = settings.codec == .ac3 ? AV_CODEC_ID_AC3 : AV_CODEC_ID_AAC
    guard let codec = avcodec_find_encoder(id) else {
      throw MediaError("this FFmpeg has no \(settings.codec.rawValue) encoder")
    }
    let encoder = try allocate(codec)
    let ctx = encoder.ctx
    ctx.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
    ctx.pointee.sample_rate = Int32(settings.sampleRate)
    av_channel_layout_default(&ctx.pointee.ch_layout, Int32(settings.channels))
    ctx.pointee.bit_rate = Int64(settings.bitrate)
    ctx.pointee.time_base = AVRational(num: 1, den: Int32(settings.sampleRate))
    if bitExact { ctx.pointee.flags |= AV_CODEC_FLAG_BITEXACT }
    if globalHeader { ctx.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
    try check(avcodec_open2(ctx, codec, nil), "avcodec_open2(\(settings.codec.rawValue))")
    return encoder
  }

  /// Signed 16-bit PCM: the lossless audio of the labelled source.
  static func pcm(sampleRate: Int, channels: Int) throws -> Encoder {
    guard let codec = avcodec_find_encoder(AV_CODEC_ID_PCM_S16LE) else {
      throw MediaError("this FFmpeg has no pcm_s16le encoder")
    }
    let encoder = try allocate(codec)
    let ctx = encoder.ctx
    ctx.pointee.sample_fmt = AV_SAMPLE_FMT_S16
    ctx.pointee.sample_rate = Int32(sampleRate)
    av_channel_layout_default(&ctx.pointee.ch_layout, Int32(channels))
    ctx.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
    try check(avcodec_open2(ctx, codec, nil), "avcodec_open2(pcm_s16le)")
    return encoder
  }

  private static func allocate(_ codec: UnsafePointer<AVCodec>) throws -> Encoder {
    guard let ctx = avcodec_alloc_context3(codec) else {
      throw FFmpegError(call: "avcodec_alloc_context3", code: hlspack_averror(ENOMEM))
    }
    return Encoder(context: ctx)
  }

  /// Sends a frame, or nil to drain.
  func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws {
    try check(avcodec_send_frame(ctx, frame), "avcodec_send_frame")
  }

  /// Receives the next packet; false when the encoder needs more input or is drained.
  func receive(into packet: Packet) throws -> Bool {
    let rc = avcodec_receive_packet(ctx, packet.pointer)
    if rc == FFmpegError.tryAgain || rc == FFmpegError.endOfFile { return false }
    try check(rc, "avcodec_receive_packet")
    return true
  }
}
