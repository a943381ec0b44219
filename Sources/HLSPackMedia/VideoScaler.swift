internal import CFFmpeg

/// Converts decoded pictures to one rung's size in 4:2:0, into a reused frame.
final class VideoScaler {
  private var context: OpaquePointer?
  private let output: Frame
  let width: Int32
  let height: Int32

  init(width: Int, height: Int) throws {
    self.width = Int32(width)
    self.height = Int32(height)
    output = try Frame()
  }

  deinit { sws_freeContext(context) }

  /// Returns a frame owned by the scaler, valid until the next call. The
  /// encoder takes its own reference when it needs the picture longer.
  func scale(_ source: UnsafeMutablePointer<AVFrame>) throws -> UnsafeMutablePointer<AVFrame> {
    let src = source.pointee
    context = sws_getCachedContext(
      context, src.width, src.height, AVPixelFormat(rawValue: src.format),
      width, height, AV_PIX_FMT_YUV420P, SWS_BICUBIC, nil, nil, nil)
    guard let context else { throw FFmpegError(call: "sws_getCachedContext", code: hlspack_averror(EINVAL)) }
    let dst = output.pointer
    if dst.pointee.buf.0 == nil {
      dst.pointee.width = width
      dst.pointee.height = height
      dst.pointee.format = AV_PIX_FMT_YUV420P.rawValue
      try check(av_frame_get_buffer(dst, 0), "av_frame_get_buffer")
    } else {
      // The encoder may still hold the previous picture: copy-on-write.
      try check(av_frame_make_writable(dst), "av_frame_make_writable")
    }
    try check(sws_scale_frame(context, dst, source), "sws_scale_frame")
    dst.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
    return dst
  }
}
