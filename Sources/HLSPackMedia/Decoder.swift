internal import CFFmpeg

/// Decodes one stream of a source.
final class Decoder {
  private var context: UnsafeMutablePointer<AVCodecContext>?
  let timeBase: AVRational

  /// `threads`: 0 lets FFmpeg choose from the machine's cores.
  init(stream: UnsafeMutablePointer<AVStream>, describing: String, threads: Int = 0) throws {
    let parameters = stream.pointee.codecpar.unsafelyUnwrapped
    guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
      let name = avcodec_get_name(parameters.pointee.codec_id).map { String(cString: $0) } ?? "unknown"
      throw MediaError("no decoder for the \(describing) codec \(name)")
    }
    context = avcodec_alloc_context3(codec)
    guard let ctx = context else { throw FFmpegError(call: "avcodec_alloc_context3", code: hlspack_averror(ENOMEM)) }
    timeBase = stream.pointee.time_base
    try check(avcodec_parameters_to_context(ctx, parameters), "avcodec_parameters_to_context")
    ctx.pointee.pkt_timebase = stream.pointee.time_base
    ctx.pointee.thread_count = Int32(clamping: threads)
    try check(avcodec_open2(ctx, codec, nil), "avcodec_open2(\(describing) decoder)")
  }

  deinit { avcodec_free_context(&context) }

  var ctx: UnsafeMutablePointer<AVCodecContext> { context.unsafelyUnwrapped }

  /// Sends a packet, or nil to drain.
  func send(_ packet: Packet?) throws {
    let rc = avcodec_send_packet(ctx, packet?.pointer)
    if rc == FFmpegError.endOfFile { return }
    try check(rc, "avcodec_send_packet")
  }

  /// Receives the next decoded frame into `frame`; false when the decoder needs
  /// more input or is drained.
  func receive(into frame: Frame) throws -> Bool {
    let rc = avcodec_receive_frame(ctx, frame.pointer)
    if rc == FFmpegError.tryAgain || rc == FFmpegError.endOfFile { return false }
    try check(rc, "avcodec_receive_frame")
    return true
  }
}
