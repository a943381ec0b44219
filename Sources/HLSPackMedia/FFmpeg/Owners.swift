internal import CFFmpeg

// Owner classes: each wraps one libav* object, frees it in deinit and is the
// only thing that does. They are handed between threads only as whole objects
// that one thread owns at a time (the work queue's invariant), hence
// @unchecked Sendable.

final class Packet: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<AVPacket>

  init() throws {
    guard let p = av_packet_alloc() else { throw FFmpegError(call: "av_packet_alloc", code: hlspack_averror(ENOMEM)) }
    pointer = p
  }

  /// A new reference to the same data (no copy of the payload).
  init(referencing other: UnsafeMutablePointer<AVPacket>) throws {
    guard let p = av_packet_clone(other) else {
      throw FFmpegError(call: "av_packet_clone", code: hlspack_averror(ENOMEM))
    }
    pointer = p
  }

  deinit {
    var p: UnsafeMutablePointer<AVPacket>? = pointer
    av_packet_free(&p)
  }

  var bytes: [UInt8] {
    guard let data = pointer.pointee.data, pointer.pointee.size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: Int(pointer.pointee.size)))
  }

  var isKeyframe: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }

  /// Gives the packet new payload bytes in a buffer of its own (the old buffer
  /// may be shared with other renditions), keeping timestamps and flags.
  func replacePayload(with bytes: [UInt8]) throws {
    guard let fresh = av_packet_alloc() else {
      throw FFmpegError(call: "av_packet_alloc", code: hlspack_averror(ENOMEM))
    }
    defer {
      var f: UnsafeMutablePointer<AVPacket>? = fresh
      av_packet_free(&f)
    }
    try check(av_new_packet(fresh, Int32(bytes.count)), "av_new_packet")
    bytes.withUnsafeBufferPointer { source in
      if let base = source.baseAddress, let data = fresh.pointee.data { data.update(from: base, count: bytes.count) }
    }
    try check(av_packet_copy_props(fresh, pointer), "av_packet_copy_props")
    av_packet_unref(pointer)
    // `fresh` is left empty; the defer frees the shell.
    av_packet_move_ref(pointer, fresh)
  }
}

final class Frame: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<AVFrame>

  init() throws {
    guard let f = av_frame_alloc() else { throw FFmpegError(call: "av_frame_alloc", code: hlspack_averror(ENOMEM)) }
    pointer = f
  }

  /// A new reference to the same picture or samples (no copy of the data).
  init(referencing other: UnsafeMutablePointer<AVFrame>) throws {
    guard let f = av_frame_clone(other) else {
      throw FFmpegError(call: "av_frame_clone", code: hlspack_averror(ENOMEM))
    }
    pointer = f
  }

  deinit {
    var f: UnsafeMutablePointer<AVFrame>? = pointer
    av_frame_free(&f)
  }
}

/// An output AVFormatContext that writes through an AVIOContext it does not
/// own (a `MemoryOutput`'s). Owned from its allocation on, so that a muxer whose
/// initializer throws before it is whole frees it too: Swift runs no deinit for
/// an object whose stored properties were not all set, only the releases of
/// those that were.
final class OutputFormatContext {
  let pointer: UnsafeMutablePointer<AVFormatContext>

  init(format: String) throws {
    var context: UnsafeMutablePointer<AVFormatContext>?
    try check(avformat_alloc_output_context2(&context, nil, format, nil), "avformat_alloc_output_context2(\(format))")
    guard let context else { throw FFmpegError(call: "avformat_alloc_output_context2", code: hlspack_averror(ENOMEM)) }
    pointer = context
  }

  deinit {
    // The AVIOContext belongs to its MemoryOutput; never let libavformat close it.
    pointer.pointee.pb = nil
    avformat_free_context(pointer)
  }
}

/// A copy of a stream's codec parameters that outlives the codec context it came from.
final class CodecParameters: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<AVCodecParameters>

  init(from context: UnsafeMutablePointer<AVCodecContext>) throws {
    guard let p = avcodec_parameters_alloc() else {
      throw FFmpegError(call: "avcodec_parameters_alloc", code: hlspack_averror(ENOMEM))
    }
    pointer = p
    try check(avcodec_parameters_from_context(p, context), "avcodec_parameters_from_context")
  }

  init(copying source: UnsafeMutablePointer<AVCodecParameters>) throws {
    guard let p = avcodec_parameters_alloc() else {
      throw FFmpegError(call: "avcodec_parameters_alloc", code: hlspack_averror(ENOMEM))
    }
    pointer = p
    try check(avcodec_parameters_copy(p, source), "avcodec_parameters_copy")
    p.pointee.codec_tag = 0
  }

  deinit {
    var p: UnsafeMutablePointer<AVCodecParameters>? = pointer
    avcodec_parameters_free(&p)
  }

  var extradata: [UInt8] {
    copiedBytes(pointer.pointee.extradata, count: pointer.pointee.extradata_size)
  }

  /// Replaces the extradata (FFmpeg wants it zero-padded, in memory of its own).
  func replaceExtradata(with bytes: [UInt8]) throws {
    guard let memory = av_mallocz(bytes.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else {
      throw FFmpegError(call: "av_mallocz", code: hlspack_averror(ENOMEM))
    }
    memory.copyMemory(from: bytes, byteCount: bytes.count)
    av_freep(&pointer.pointee.extradata)
    pointer.pointee.extradata = memory.assumingMemoryBound(to: UInt8.self)
    pointer.pointee.extradata_size = Int32(bytes.count)
  }
}

/// A copy of C bytes (extradata and the like); empty when there are none.
func copiedBytes(_ pointer: UnsafeMutablePointer<UInt8>?, count: Int32) -> [UInt8] {
  guard let pointer, count > 0 else { return [] }
  return Array(UnsafeBufferPointer(start: pointer, count: Int(count)))
}

extension UnsafeMutablePointer where Pointee == AVStream {
  /// The stream's start time in seconds (0 when the container does not say).
  var startSeconds: Double {
    pointee.start_time == hlspack_nopts_value() ? 0 : Double(pointee.start_time) * pointee.time_base.seconds
  }
}

extension AVRational {
  var seconds: Double { den == 0 ? 0 : Double(num) / Double(den) }
}
