internal import CFFmpeg

/// An FFmpeg bitstream filter (e.g. `h264_mp4toannexb`, `aac_adtstoasc`), owned here and freed in deinit.
final class BitstreamFilter {
  private var context: UnsafeMutablePointer<AVBSFContext>?

  init(name: String, parameters: UnsafeMutablePointer<AVCodecParameters>, timeBase: AVRational) throws {
    guard let filter = av_bsf_get_by_name(name) else {
      throw MediaError("no bitstream filter \(name)")
    }
    try check(av_bsf_alloc(filter, &context), "av_bsf_alloc(\(name))")
    guard let ctx = context else { throw FFmpegError(call: "av_bsf_alloc", code: hlspack_averror(ENOMEM)) }
    try check(avcodec_parameters_copy(ctx.pointee.par_in, parameters), "avcodec_parameters_copy")
    ctx.pointee.time_base_in = timeBase
    try check(av_bsf_init(ctx), "av_bsf_init(\(name))")
  }

  deinit { av_bsf_free(&context) }

  /// The output parameters (e.g. Annex B extradata).
  var outputParameters: UnsafeMutablePointer<AVCodecParameters> { context.unsafelyUnwrapped.pointee.par_out }

  /// Filters one packet (its reference moves into the filter); returns what comes out.
  func filter(_ packet: Packet) throws -> [Packet] {
    let ctx = context.unsafelyUnwrapped
    try check(av_bsf_send_packet(ctx, packet.pointer), "av_bsf_send_packet")
    var out: [Packet] = []
    while true {
      let next = try Packet()
      let rc = av_bsf_receive_packet(ctx, next.pointer)
      if rc == FFmpegError.tryAgain || rc == FFmpegError.endOfFile { break }
      try check(rc, "av_bsf_receive_packet")
      out.append(next)
    }
    return out
  }
}
