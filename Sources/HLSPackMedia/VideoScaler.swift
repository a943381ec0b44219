import HLSPackCore
internal import CFFmpeg

/// Converts decoded pictures to one rung's size in 4:2:0, into a reused frame,
/// shown as players show it when the source carries a display matrix
/// (libswscale cannot turn or mirror, so it scales to the size before turning
/// and the planes are turned here).
final class VideoScaler {
  private var context: OpaquePointer?
  private let scaled: Frame
  private let turned: Frame
  let width: Int32
  let height: Int32
  private let orientation: PictureOrientation

  init(width: Int, height: Int, orientation: PictureOrientation = .upright) throws {
    self.width = Int32(width)
    self.height = Int32(height)
    self.orientation = orientation
    scaled = try Frame()
    turned = try Frame()
  }

  deinit { sws_freeContext(context) }

  /// Returns a frame owned by the scaler, valid until the next call. The
  /// encoder takes its own reference when it needs the picture longer.
  func scale(_ source: UnsafeMutablePointer<AVFrame>) throws -> UnsafeMutablePointer<AVFrame> {
    let src = source.pointee
    let sideways = orientation.swapsSides
    let (scaledWidth, scaledHeight) = sideways ? (height, width) : (width, height)
    context = sws_getCachedContext(
      context, src.width, src.height, AVPixelFormat(rawValue: src.format),
      scaledWidth, scaledHeight, AV_PIX_FMT_YUV420P, SWS_BICUBIC, nil, nil, nil)
    guard let context else { throw FFmpegError(call: "sws_getCachedContext", code: hlspack_averror(EINVAL)) }
    let dst = try Self.writable(scaled, width: scaledWidth, height: scaledHeight)
    try check(sws_scale_frame(context, dst, source), "sws_scale_frame")
    dst.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
    guard orientation != .upright else { return dst }
    let upright = try Self.writable(turned, width: width, height: height)
    for plane in 0..<3 {
      let shift: Int32 = plane == 0 ? 0 : 1
      turn(
        from: dst, plane: plane, width: Int((scaledWidth + shift) >> shift), height: Int((scaledHeight + shift) >> shift),
        into: upright)
    }
    upright.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
    return upright
  }

  /// A frame of this size whose buffer may be written: the encoder may still
  /// hold the previous picture (copy-on-write).
  private static func writable(_ frame: Frame, width: Int32, height: Int32) throws -> UnsafeMutablePointer<AVFrame> {
    let f = frame.pointer
    if f.pointee.buf.0 == nil {
      f.pointee.width = width
      f.pointee.height = height
      f.pointee.format = AV_PIX_FMT_YUV420P.rawValue
      try check(av_frame_get_buffer(f, 0), "av_frame_get_buffer")
    } else {
      try check(av_frame_make_writable(f), "av_frame_make_writable")
    }
    return f
  }

  /// Copies one plane of `source` (`width` x `height` samples) turned and mirrored as `orientation` says.
  private func turn(from source: UnsafeMutablePointer<AVFrame>, plane: Int, width: Int, height: Int, into target: UnsafeMutablePointer<AVFrame>) {
    let sourceStride = source.stride(plane), targetStride = target.stride(plane)
    guard let from = source.plane(plane), let to = target.plane(plane) else { return }
    let (origin, xStep, yStep) = orientation.steps(width: width, height: height, targetStride: targetStride)
    for y in 0..<height {
      let row = from + y * sourceStride
      let start = to + origin + y * yStep
      for x in 0..<width { start[x * xStep] = row[x] }
    }
  }
}
