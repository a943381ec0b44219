internal import CFFmpeg
import HLSPackCore

/// An AVIOContext whose writes land in a Swift byte buffer, so segments are cut
/// from memory, in parts, and never re-read from disk. The only file with the AVIO write
/// callback signature, which changes in FFmpeg 7 (const buffer).
final class MemoryOutput {
  /// Holds the bytes; passed to C as the callback's opaque pointer.
  private final class Buffer {
    var bytes: [UInt8] = []
  }

  private let buffer = Buffer()
  private(set) var context: UnsafeMutablePointer<AVIOContext>?

  init() throws {
    let size: Int32 = 64 * 1024
    guard let memory = av_malloc(Int(size)) else { throw FFmpegError(call: "av_malloc", code: hlspack_averror(ENOMEM)) }
    let opaque = Unmanaged.passUnretained(buffer).toOpaque()
    context = avio_alloc_context(
      memory.assumingMemoryBound(to: UInt8.self), size, 1, opaque, nil,
      { opaque, data, count in
        guard let opaque, let data, count > 0 else { return 0 }
        let buffer = Unmanaged<Buffer>.fromOpaque(opaque).takeUnretainedValue()
        buffer.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(count)))
        return count
      }, nil)
    if context == nil {
      var m: UnsafeMutableRawPointer? = memory
      av_freep(&m)
      throw FFmpegError(call: "avio_alloc_context", code: hlspack_averror(ENOMEM))
    }
  }

  deinit {
    if let context {
      // avio_context_free does not free the buffer, which FFmpeg may have replaced.
      av_freep(&context.pointee.buffer)
    }
    avio_context_free(&context)
  }

  /// Bytes handed over by AVIO and not yet taken (AVIO's own buffer holds up to 64 KiB more).
  var byteCount: Int { buffer.bytes.count }

  /// Flushes AVIO and hands over everything written since the last call. The
  /// buffer itself changes hands (no copy); writing goes on in a recycled one.
  func take() -> [UInt8] {
    avio_flush(context)
    var filled = PartBufferPool.shared.take()
    swap(&filled, &buffer.bytes)
    return filled
  }
}
