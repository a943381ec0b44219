import HLSPackCore
internal import CFFmpeg

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

  init(
    input: MediaInput, sourceIndex: Int32, settings: AudioSettings, videoStart: Double, container: Container,
    bitExact: Bool, deliver: @escaping (Packet) throws -> Void
  ) throws {
    self.sourceIndex = sourceIndex
    let stream = input.stream(sourceIndex)
    encoder = try Encoder.audio(settings, bitExact: bitExact, globalHeader: container == .fmp4)
    decoder = try Decoder(stream: stream, describing: "audio")
    converter = try AudioConverter(
      settings: settings, frameSize: encoder.ctx.pointee.frame_size, startSeconds: stream.startSeconds - videoStart)
    self.deliver = deliver
    frame = try Frame()
    packet = try Packet()
  }

  func parameters() throws -> CodecParameters { try CodecParameters(from: encoder.ctx) }

  /// Decodes a source packet and delivers whatever it completes.
  func send(_ source: Packet) throws {
    // A damaged packet is skipped as the ffmpeg CLI does.
    do { try decoder.send(source) } catch { decodeErrors += 1 }
    try receive(final: false)
  }

  /// Drains decoder, resampler and encoder at the end of the input.
  func finish() throws {
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
