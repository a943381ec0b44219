internal import CFFmpeg
import Foundation
import HLSPackCore

/// Converts decoded pictures to one rung's size in 4:2:0, into a reused frame,
/// shown as players show it when the source carries a display matrix, and
/// placed where the rung's fit puts it (black bars around it when padded).
/// libswscale cannot turn, mirror or place, so it scales to the picture's size
/// before turning and the planes are turned and placed here.
final class VideoScaler {
  typealias Placement = (x: Int, y: Int, width: Int, height: Int)

  private var context: OpaquePointer?
  private let scaled: Frame
  private let placed: Frame
  let width: Int32
  let height: Int32
  private let orientation: PictureOrientation
  /// Where the picture goes in the frame: all of it unless padded.
  private let picture: Placement
  private var padded: Bool { picture != (0, 0, Int(width), Int(height)) }
  /// 4:2:0 in 8 bits, or in 10 (HDR rungs).
  private let format: AVPixelFormat

  init(
    width: Int, height: Int, orientation: PictureOrientation = .upright, picture: Placement? = nil,
    tenBit: Bool = false
  ) throws {
    self.width = Int32(width)
    self.height = Int32(height)
    self.orientation = orientation
    self.picture = picture ?? (0, 0, width, height)
    format = tenBit ? AV_PIX_FMT_YUV420P10LE : AV_PIX_FMT_YUV420P
    scaled = try Frame()
    placed = try Frame()
    // Turning and padding move 8-bit samples; 10-bit pictures are only scaled.
    if tenBit, orientation != .upright || padded {
      throw MediaError(
        "an HDR picture that is turned or padded (\"fit\": \"pad\") cannot be encoded yet: only scaled; use \"codec\": \"copy\""
      )
    }
  }

  deinit { sws_freeContext(context) }

  /// Returns a frame owned by the scaler, valid until the next call. The
  /// encoder takes its own reference when it needs the picture longer.
  func scale(_ source: UnsafeMutablePointer<AVFrame>) throws -> UnsafeMutablePointer<AVFrame> {
    let src = source.pointee
    let (pictureWidth, pictureHeight) = (Int32(picture.width), Int32(picture.height))
    let (scaledWidth, scaledHeight) =
      orientation.swapsSides ? (pictureHeight, pictureWidth) : (pictureWidth, pictureHeight)
    context = sws_getCachedContext(
      context, src.width, src.height, AVPixelFormat(rawValue: src.format),
      scaledWidth, scaledHeight, format, SWS_BICUBIC, nil, nil, nil)
    guard let context else { throw FFmpegError(call: "sws_getCachedContext", code: hlspack_averror(EINVAL)) }
    let dst = try Self.writable(scaled, width: scaledWidth, height: scaledHeight, format: format, black: false)
    try check(sws_scale_frame(context, dst, source), "sws_scale_frame")
    dst.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
    guard orientation != .upright || padded else { return dst }
    let output = try Self.writable(placed, width: width, height: height, format: format, black: padded)
    for plane in 0..<3 {
      let shift: Int32 = plane == 0 ? 0 : 1
      place(
        from: dst, plane: plane, width: Int((scaledWidth + shift) >> shift),
        height: Int((scaledHeight + shift) >> shift),
        into: output, at: (picture.x >> Int(shift), picture.y >> Int(shift)))
    }
    output.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
    return output
  }

  /// A frame of this size whose buffer may be written: the encoder may still
  /// hold the previous picture (copy-on-write, which keeps the bars).
  /// `black`: a new buffer starts black (limited range), for the bars.
  private static func writable(
    _ frame: Frame, width: Int32, height: Int32, format: AVPixelFormat, black: Bool
  ) throws -> UnsafeMutablePointer<AVFrame> {
    let f = frame.pointer
    if f.pointee.buf.0 == nil {
      f.pointee.width = width
      f.pointee.height = height
      f.pointee.format = format.rawValue
      try check(av_frame_get_buffer(f, 0), "av_frame_get_buffer")
      if black {
        for plane in 0..<3 {
          let rows = Int(plane == 0 ? height : (height + 1) >> 1)
          if let start = f.plane(plane) { memset(start, plane == 0 ? 16 : 128, f.stride(plane) * rows) }
        }
      }
    } else {
      try check(av_frame_make_writable(f), "av_frame_make_writable")
    }
    return f
  }

  /// Copies one plane of `source` (`width` x `height` samples), turned and
  /// mirrored as `orientation` says, into `target` with its top left at `corner`.
  private func place(
    from source: UnsafeMutablePointer<AVFrame>, plane: Int, width: Int, height: Int,
    into target: UnsafeMutablePointer<AVFrame>,
    at corner: (x: Int, y: Int)
  ) {
    let sourceStride = source.stride(plane), targetStride = target.stride(plane)
    guard let from = source.plane(plane), let frameStart = target.plane(plane) else { return }
    let to = frameStart + corner.y * targetStride + corner.x
    if orientation == .upright {
      for y in 0..<height { memcpy(to + y * targetStride, from + y * sourceStride, width) }
      return
    }
    let (origin, xStep, yStep) = orientation.steps(width: width, height: height, targetStride: targetStride)
    for y in 0..<height {
      let row = from + y * sourceStride
      let start = to + origin + y * yStep
      for x in 0..<width { start[x * xStep] = row[x] }
    }
  }
}
