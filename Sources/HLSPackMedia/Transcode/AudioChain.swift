internal import CFFmpeg
import HLSPackCore

/// One audio output made from one source audio stream: decode, resample,
/// encode, then hand each packet on (to every rung when muxed, or to an audio
/// rendition's own muxer).
final class AudioChain {
  let sourceIndex: Int32
  let encoder: Encoder
  private let decoder: Decoder
  private let converter: AudioConverter
  private let deliver: (Packet) throws -> Void
  private let frame: Frame
  private let packet: Packet
  private(set) var decodeErrors = 0
  /// Where the source stream's header says it ends, in its time base.
  private let declaredEnd: Int64?
  private var finished = false

  init(
    input: MediaInput, sourceIndex: Int32, settings: AudioSettings, videoStart: Double, output: RenditionOutput,
    deliver: @escaping (Packet) throws -> Void
  ) throws {
    self.sourceIndex = sourceIndex
    let stream = input.stream(sourceIndex)
    encoder = try Encoder.audio(settings, bitExact: output.reproducible, globalHeader: output.container == .fmp4)
    decoder = try Decoder(stream: stream, describing: "audio")
    converter = try AudioConverter(
      settings: settings, frameSize: encoder.ctx.pointee.frame_size, startSeconds: stream.startSeconds - videoStart,
      videoSeconds: input.contentDuration)
    self.deliver = deliver
    frame = try Frame()
    packet = try Packet()
    declaredEnd = input.declaredEnd(of: sourceIndex)
  }

  func parameters() throws -> CodecParameters { try CodecParameters(from: encoder.ctx) }

  /// Decodes a source packet and delivers whatever it completes. The packet
  /// that reaches the stream's declared end finishes the chain: the encoder
  /// holds its last frames until it is drained, and drained only at the end
  /// of the input they would land in whatever segment the video had reached
  /// by then, seconds after their time, when the audio ends before the video.
  /// Packets past the declared end are outside the track and dropped.
  func send(_ source: Packet) throws {
    guard !finished else { return }
    // A damaged packet is skipped as the ffmpeg CLI does.
    do { try decoder.send(source) } catch { decodeErrors += 1 }
    try receive(final: false)
    let pts = source.pointer.pointee.pts
    if let declaredEnd, pts != hlspack_nopts_value(), pts + max(source.pointer.pointee.duration, 0) >= declaredEnd {
      try finish()
    }
  }

  /// Drains decoder, resampler and encoder: at the stream's declared end, or at the end of the input.
  func finish() throws {
    guard !finished else { return }
    finished = true
    try decoder.send(nil)
    try receive(final: false)
    try converter.push(nil)
    try encode(final: true)
    try encoder.send(nil)
    try drain()
  }

  private func receive(final: Bool) throws {
    while try decoder.receive(into: frame) {
      defer { av_frame_unref(frame.pointer) }
      try converter.push(frame.pointer)
      try encode(final: false)
    }
  }

  private func encode(final: Bool) throws {
    while let chunk = try converter.pop(final: final) {
      try encoder.send(chunk.pointer)
      try drain()
    }
  }

  private func drain() throws {
    while try encoder.receive(into: packet) {
      defer { av_packet_unref(packet.pointer) }
      try deliver(try Packet(referencing: packet.pointer))
    }
  }
}
