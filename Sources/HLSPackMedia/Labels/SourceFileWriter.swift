internal import CFFmpeg
import Foundation

/// A Matroska file written through libavformat's own file I/O: the labelled
/// source that `hlspack fixture make` encodes its packages from. Owns the
/// format context and the file; `finish()` writes the trailer.
final class SourceFileWriter {
  private let context: UnsafeMutablePointer<AVFormatContext>
  private var opened = false
  let path: String

  init(path: String) throws {
    self.path = path
    var made: UnsafeMutablePointer<AVFormatContext>?
    try check(avformat_alloc_output_context2(&made, nil, "matroska", path), "avformat_alloc_output_context2(matroska)")
    guard let made else { throw FFmpegError(call: "avformat_alloc_output_context2", code: hlspack_averror(ENOMEM)) }
    context = made
    // Same source, same bytes: no muxer version string in the file.
    context.pointee.flags |= AVFMT_FLAG_BITEXACT
  }

  deinit {
    if opened { avio_closep(&context.pointee.pb) }
    avformat_free_context(context)
  }

  /// Adds a stream for what `encoder` makes; returns its index.
  func addStream(from encoder: Encoder, language: String? = nil) throws -> Int32 {
    guard let stream = avformat_new_stream(context, nil) else {
      throw FFmpegError(call: "avformat_new_stream", code: hlspack_averror(ENOMEM))
    }
    try check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder.ctx), "avcodec_parameters_from_context")
    stream.pointee.time_base = encoder.timeBase
    if let language { av_dict_set(&stream.pointee.metadata, "language", language, 0) }
    return stream.pointee.index
  }

  func start() throws {
    try check(avio_open(&context.pointee.pb, path, AVIO_FLAG_WRITE), "avio_open(\(path))")
    opened = true
    try check(avformat_write_header(context, nil), "avformat_write_header")
  }

  /// Writes a packet whose times count in `timeBase` to stream `index`.
  func write(_ packet: Packet, stream index: Int32, timeBase: AVRational) throws {
    guard let stream = context.pointee.streams[Int(index)] else { throw MediaError("no stream \(index)") }
    packet.pointer.pointee.stream_index = index
    av_packet_rescale_ts(packet.pointer, timeBase, stream.pointee.time_base)
    try check(av_interleaved_write_frame(context, packet.pointer), "av_interleaved_write_frame")
  }

  func finish() throws {
    try check(av_write_trailer(context), "av_write_trailer")
    try check(avio_closep(&context.pointee.pb), "avio_closep(\(path))")
    opened = false
  }
}
