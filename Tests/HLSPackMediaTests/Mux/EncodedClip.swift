import CFFmpeg
import Foundation
import Testing

@testable import HLSPackCore
@testable import HLSPackMedia

/// A few seconds of 64x64 H.264 at 25 fps and mono AAC at 48 kHz, made by the
/// project's own encoders as a rung worker makes them: IDR frames forced at
/// the schedule's boundaries, and more keyframes in between from a shorter GOP.
struct EncodedClip {
  static let rate = FrameRate(numerator: 25, denominator: 1)
  static let width: Int32 = 64
  static let height: Int32 = 64

  let video: Encoder
  let audio: Encoder
  /// In decode order, in the encoders' time bases.
  let videoPackets: [Packet]
  let audioPackets: [Packet]

  /// `globalHeader`: parameter sets and AudioSpecificConfig in extradata, as fMP4 needs.
  init(seconds: Int, schedule: KeyframeSchedule, gopFrames: Int, globalHeader: Bool) throws {
    var source = AVCodecParameters()
    source.format = AV_PIX_FMT_YUV420P.rawValue
    source.color_primaries = AVCOL_PRI_BT709
    source.color_trc = AVCOL_TRC_BT709
    source.color_space = AVCOL_SPC_BT709
    video = try Encoder.video(
      rung: VideoRung(name: "v", width: Int(Self.width), height: Int(Self.height), bitrate: 100_000),
      rate: Self.rate, gopFrames: gopFrames, colour: ColourDescription(source: source), bitExact: true,
      threads: 1, globalHeader: globalHeader)
    audio = try Encoder.audio(
      AudioSettings(codec: .aac, bitrate: 64_000, channels: 1, sampleRate: 48_000), bitExact: true,
      globalHeader: globalHeader)

    videoPackets = try Self.encodeRamp(video, frames: Int64(seconds * Self.rate.numerator), schedule: schedule)
    audioPackets = try Self.encodeTone(audio, seconds: seconds)
  }

  /// `frames` pictures through `encoder`, IDRs forced where `schedule` puts boundaries, drained.
  static func encodeRamp(_ encoder: Encoder, frames: Int64, schedule: KeyframeSchedule) throws -> [Packet] {
    var packets: [Packet] = []
    for index in 0..<frames {
      let frame = try picture(index)
      frame.pointer.pointee.pict_type =
        schedule.isBoundary(frameIndex: index) ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
      // The frame is freed with its owner: keep it until the encoder has taken its reference.
      try withExtendedLifetime(frame) { try encoder.send(frame.pointer) }
      packets += try drain(encoder)
    }
    try encoder.send(nil)
    return packets + (try drain(encoder))
  }

  /// `seconds` of a 440 Hz tone through `encoder`, drained.
  static func encodeTone(_ encoder: Encoder, seconds: Int) throws -> [Packet] {
    var packets: [Packet] = []
    let frameSize = Int64(encoder.ctx.pointee.frame_size)
    let rate = Int64(encoder.ctx.pointee.sample_rate)
    for start in stride(from: 0, to: Int64(seconds) * rate, by: Int(frameSize)) {
      let frame = try tone(start: start, count: frameSize, layoutOf: encoder)
      try withExtendedLifetime(frame) { try encoder.send(frame.pointer) }
      packets += try drain(encoder)
    }
    try encoder.send(nil)
    return packets + (try drain(encoder))
  }

  private static func drain(_ encoder: Encoder) throws -> [Packet] {
    var packets: [Packet] = []
    let packet = try Packet()
    while try encoder.receive(into: packet) {
      packets.append(try Packet(referencing: packet.pointer))
      av_packet_unref(packet.pointer)
    }
    return packets
  }

  /// Picture `index`: a diagonal ramp that moves with time, so that frames differ.
  private static func picture(_ index: Int64) throws -> Frame {
    let frame = try Frame()
    let p = frame.pointer
    p.pointee.format = AV_PIX_FMT_YUV420P.rawValue
    p.pointee.width = width
    p.pointee.height = height
    p.pointee.pts = index
    try check(av_frame_get_buffer(p, 0), "av_frame_get_buffer")
    let planes = [
      (p.pointee.data.0, p.pointee.linesize.0, height), (p.pointee.data.1, p.pointee.linesize.1, height / 2),
      (p.pointee.data.2, p.pointee.linesize.2, height / 2),
    ]
    for (plane, (data, stride, rows)) in planes.enumerated() {
      let data = try #require(data)
      for row in 0..<Int(rows) {
        for column in 0..<Int(stride) {
          let ramp = UInt8(truncatingIfNeeded: row + column + Int(index) * 4)
          data[row * Int(stride) + column] = plane == 0 ? ramp : 128
        }
      }
    }
    return frame
  }

  /// `count` samples of a 440 Hz tone from sample `start`, in the encoder's format and layout.
  private static func tone(start: Int64, count: Int64, layoutOf encoder: Encoder) throws -> Frame {
    let frame = try Frame()
    let p = frame.pointer
    p.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
    p.pointee.nb_samples = Int32(count)
    p.pointee.sample_rate = encoder.ctx.pointee.sample_rate
    p.pointee.pts = start
    try check(av_channel_layout_copy(&p.pointee.ch_layout, &encoder.ctx.pointee.ch_layout), "av_channel_layout_copy")
    try check(av_frame_get_buffer(p, 0), "av_frame_get_buffer")
    let samples = UnsafeMutableRawPointer(try #require(p.pointee.data.0)).assumingMemoryBound(to: Float.self)
    for n in 0..<Int(count) {
      samples[n] = Float(0.1 * sin(2 * Double.pi * 440 * Double(start + Int64(n)) / Double(p.pointee.sample_rate)))
    }
    return frame
  }
}
