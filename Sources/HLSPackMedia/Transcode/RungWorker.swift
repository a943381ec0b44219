internal import CFFmpeg
import Foundation
import HLSPackCore

/// Everything one rung does on its own thread: frame-rate conversion, scaling,
/// encoding with forced IDRs (AV1: key frames), and muxing into segments.
final class RungWorker: @unchecked Sendable {
  enum Item {
    case video(Frame, seconds: Double)
    case audio(Packet)
  }

  let rung: VideoRung
  let queue = WorkQueue<Item>(capacity: 32)
  private let schedule: KeyframeSchedule
  private var converter: FrameRateConverter
  private let scaler: VideoScaler
  private let labels: LabelOverlay?
  /// Set for an SDR source's rung made HDR: after the labels, before the encoder.
  private let toHDR: SDRInHDR?
  private let encoder: Encoder
  private let muxer: SegmentMuxer
  private let audioCodec: String?
  private let packet: Packet
  private var held: Frame?
  /// Times of the last two input frames: the last one lasts as long as the interval between them.
  private var lastTimes: (Double, Double)?
  private var nextFrameIndex: Int64 = 0
  private let finished = DispatchSemaphore(value: 0)
  private(set) var failure: Error?
  private(set) var facts: WrittenStreamFacts?
  /// What the rung's VUI says: PQ or HLG for a Main 10 rung.
  private let videoRange: VideoRange

  init(
    rung: VideoRung, rate: FrameRate, output: RenditionOutput, threads: Int, source: MediaInput,
    audio: (parameters: CodecParameters, timeBase: AVRational, codec: String)?, labels: LabelOverlay? = nil,
    destination: SegmentDestination, picture: RungPicture
  ) throws {
    self.labels = labels
    self.rung = rung
    schedule = KeyframeSchedule(segmentDuration: output.segmentDuration, rate: rate)
    converter = FrameRateConverter(rate: rate)
    scaler = try VideoScaler(
      width: rung.width, height: rung.height, orientation: source.videoOrientation,
      picture: rung.fit.placement(width: rung.width, height: rung.height, aspect: source.videoPictureAspect),
      tenBit: picture.hdr != nil && !picture.placesSDRInHDR)
    let timeBase = AVRational(num: Int32(rate.denominator), den: Int32(rate.numerator))
    toHDR =
      picture.placesSDRInHDR
      ? try SDRInHDR(
        picture.range, width: rung.width, height: rung.height, timeBase: timeBase, source: source.videoColour)
      : nil
    let gop = try Self.gopFrames(rung, schedule: schedule, rate: rate, output: output, path: source.path)
    encoder = try Encoder.video(
      rung: rung, rate: rate, gopFrames: gop, colour: picture.colour, bitExact: output.reproducible,
      threads: threads, globalHeader: output.container == .fmp4, hdr: picture.hdr)
    videoRange = picture.range
    muxer = try SegmentMuxer(
      output: output,
      video: CodecParameters(from: encoder.ctx), videoTimeBase: encoder.timeBase,
      audio: audio?.parameters, audioTimeBase: audio?.timeBase, destination: destination)
    audioCodec = audio?.codec
    packet = try Packet()
  }

  /// IDRs at every segment start, and at least every 2 s within long
  /// segments. SVT-AV1 in FFmpeg 5.1 ignores forced key frames (the wrapper
  /// passes no picture type), so an AV1 rung's GOP is a period that divides
  /// the segment, which must then be a whole number of frames.
  private static func gopFrames(
    _ rung: VideoRung, schedule: KeyframeSchedule, rate: FrameRate, output: RenditionOutput, path: String
  ) throws -> Int {
    let twoSeconds = Int((2 * rate.value).rounded(.up))
    guard rung.codec == .av1 else { return max(1, min(schedule.framesPerSegment, twoSeconds)) }
    guard let period = schedule.keyFramePeriod(atMost: twoSeconds) else {
      let frames = output.segmentDuration * rate.value
      throw PackError.input(
        path: path,
        reason:
          "rung \(rung.name) is AV1, whose key frames SVT-AV1 places only every so many frames, so a segment must be a whole number of frames: \(String(format: "%g", output.segmentDuration)) s at \(rate) fps is \(String(format: "%.2f", frames)) frames; change $.segment.duration or give the rung an \"fps\""
      )
    }
    return period
  }

  func start() {
    let thread = Thread { [self] in
      run()
      finished.signal()
    }
    thread.name = "hlspack-\(rung.name)"
    thread.start()
  }

  func join() { finished.wait() }

  private func run() {
    do {
      while let item = queue.take() {
        switch item {
        case .video(let frame, let seconds):
          for _ in 0..<converter.push(seconds: seconds) { try encode(held ?? frame) }
          held = frame
          lastTimes = (lastTimes?.1 ?? seconds, seconds)
        case .audio(let packet):
          try muxer.writeAudio(packet)
        }
      }
      try finish()
    } catch {
      failure = error
      queue.abort()
    }
  }

  private func finish() throws {
    if let held, let (previous, last) = lastTimes {
      let end = last > previous ? 2 * last - previous : nil
      for _ in 0..<converter.finish(endSeconds: end) { try encode(held) }
    }
    held = nil
    try encoder.send(nil)
    try drain()
    try muxer.finish()
    // Parameter sets are in-band (TS) or in extradata (fMP4); either way they
    // are the bytes that were written. AV1's sequence header OBU is the
    // extradata the mov muxer writes as the av1C's configOBUs.
    let parameterSets = muxer.firstKeyframe + encoder.extradata
    let video =
      switch rung.codec {
      case .hevc: CodecString.hvc1(annexB: parameterSets)
      case .av1: CodecString.av01(obus: encoder.extradata)
      case .h264, .copy: CodecString.avc1(annexB: parameterSets)
      }
    facts = WrittenStreamFacts(
      codecs: [video, audioCodec].compactMap { $0 },
      width: rung.width, height: rung.height, frameRate: muxer.frameRate, videoFrames: muxer.frames,
      videoRange: videoRange)
  }

  private func encode(_ frame: Frame) throws {
    let scaled = try scaler.scale(frame.pointer)
    scaled.pointee.pict_type =
      schedule.isBoundary(frameIndex: nextFrameIndex) ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
    let labelled = try labels?.label(scaled, frame: nextFrameIndex) ?? scaled
    labelled.pointee.pts = nextFrameIndex
    let picture = try toHDR?.convert(labelled) ?? labelled
    nextFrameIndex += 1
    try encoder.send(picture)
    try drain()
  }

  private func drain() throws {
    while try encoder.receive(into: packet) {
      defer { av_packet_unref(packet.pointer) }
      let opens = packet.isKeyframe && schedule.isBoundary(frameIndex: packet.pointer.pointee.pts)
      try muxer.writeVideo(packet, opensSegment: opens)
    }
  }
}
