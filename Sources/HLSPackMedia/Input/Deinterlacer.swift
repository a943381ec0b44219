internal import CFFmpeg

/// Makes interlaced pictures progressive (HLS video is progressive) by
/// blending the two fields line by line ([1 2 1] / 4 vertically): no combing
/// where they differ, at the cost of some vertical detail. Done once per
/// decoded picture, at the source's size, before any rung scales it (scaling
/// would mix lines of both fields). Not libavfilter's yadif: packaging does
/// not load libavfilter, which only `hlspack fixture` opens (`FilterLibrary`).
final class Deinterlacer {
  private var context: OpaquePointer?
  private let output: Frame

  init() throws {
    output = try Frame()
  }

  deinit { sws_freeContext(context) }

  /// The picture in 4:2:0 with its fields blended, in a new buffer each call:
  /// the rungs hold references to earlier ones while they work.
  func progressive(_ source: UnsafeMutablePointer<AVFrame>) throws -> UnsafeMutablePointer<AVFrame> {
    let src = source.pointee
    context = sws_getCachedContext(
      context, src.width, src.height, AVPixelFormat(rawValue: src.format),
      src.width, src.height, AV_PIX_FMT_YUV420P, SWS_POINT, nil, nil, nil)
    guard let context else { throw FFmpegError(call: "sws_getCachedContext", code: hlspack_averror(EINVAL)) }
    let frame = output.pointer
    av_frame_unref(frame)
    frame.pointee.width = src.width
    frame.pointee.height = src.height
    frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
    try check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer")
    try check(sws_scale_frame(context, frame, source), "sws_scale_frame")
    for plane in 0..<3 {
      let shift: Int32 = plane == 0 ? 0 : 1
      blend(
        frame.plane(plane), stride: frame.stride(plane), width: Int((src.width + shift) >> shift),
        height: Int((src.height + shift) >> shift))
    }
    return frame
  }

  private func blend(_ base: UnsafeMutablePointer<UInt8>?, stride: Int, width: Int, height: Int) {
    guard let base else { return }
    var above = Array(UnsafeBufferPointer(start: base, count: width))
    for y in 1..<max(height - 1, 1) {
      let row = base + y * stride, below = base + (y + 1) * stride
      for x in 0..<width {
        let current = row[x]
        row[x] = UInt8((Int(above[x]) + 2 * Int(current) + Int(below[x]) + 2) >> 2)
        above[x] = current
      }
    }
  }
}

extension UnsafeMutablePointer<AVFrame> {
  /// Plane `index`'s first sample.
  func plane(_ index: Int) -> UnsafeMutablePointer<UInt8>? {
    withUnsafeBytes(of: pointee.data) { $0.load(fromByteOffset: index * 8, as: UnsafeMutablePointer<UInt8>?.self) }
  }

  /// Bytes from one row of plane `index` to the next.
  func stride(_ index: Int) -> Int {
    Int(withUnsafeBytes(of: pointee.linesize) { $0.load(fromByteOffset: index * 4, as: Int32.self) })
  }
}
