import Foundation
import HLSPackCore
internal import CFFmpeg

/// What the transcoder needs to know about one job.
public struct LadderJob: Sendable {
  public var rungs: [VideoRung]
  public var audio: AudioSettings?
  public var segmentDuration: Double
  public var container: Container
  /// Same input, same output, to the byte: fixed encoder thread counts and no
  /// version strings (FFmpeg's bit-exact flags).
  public var bitExact: Bool

  public init(rungs: [VideoRung], audio: AudioSettings?, segmentDuration: Double, container: Container, bitExact: Bool = false) {
    self.rungs = rungs
    self.audio = audio
    self.segmentDuration = segmentDuration
    self.container = container
    self.bitExact = bitExact
  }
}

/// Makes the renditions of one asset; `sinks[i]` receives rendition i's
/// segments on that rendition's thread, and `progress` is called on the
/// calling thread with source seconds done.
public protocol RenditionProducer {
  var duration: Double? { get }
  var hasAudio: Bool { get }
  func run(sinks: [SegmentSink], progress: (Double) -> Void) throws -> [WrittenStreamFacts]
}

/// Decodes a source once and feeds every rung's worker from that one decode;
/// audio is encoded once and the same packets are muxed into every rung.
public final class LadderTranscoder: RenditionProducer {
  private let input: MediaInput
  private let job: LadderJob

  /// Opens and checks the source; fails with `PackError.input` naming the file.
  public init(path: String, job: LadderJob) throws {
    input = try MediaInput(path: path)
    self.job = job
  }

  /// The container's duration in seconds, when declared (for progress).
  public var duration: Double? { input.duration }
  public var hasAudio: Bool { input.audioStreamIndex != nil }

  public func run(sinks: [SegmentSink], progress: (Double) -> Void) throws -> [WrittenStreamFacts] {
    do {
      return try transcode(job, sinks: sinks, progress: progress)
    } catch let error as PackError {
      throw error
    } catch {
      throw PackError.media(path: input.path, reason: "\(error)")
    }
  }

  private func transcode(_ job: LadderJob, sinks: [SegmentSink], progress: (Double) -> Void) throws -> [WrittenStreamFacts] {
    let videoStream = input.stream(input.videoStreamIndex)
    let video = try Decoder(stream: videoStream, describing: "video")
    let videoStart = Self.startSeconds(videoStream)

    var audio: (decoder: Decoder, converter: AudioConverter, encoder: Encoder)?
    var audioForRungs: (parameters: CodecParameters, timeBase: AVRational, codec: String)?
    if let settings = job.audio, let index = input.audioStreamIndex {
      let stream = input.stream(index)
      let encoder = try Encoder.audio(settings, bitExact: job.bitExact, globalHeader: job.container == .fmp4)
      let decoder = try Decoder(stream: stream, describing: "audio")
      let converter = try AudioConverter(
        settings: settings, frameSize: encoder.ctx.pointee.frame_size,
        startSeconds: Self.startSeconds(stream) - videoStart)
      audio = (decoder, converter, encoder)
      let parameters = try CodecParameters(from: encoder.ctx)
      let codec = audioCodecString(parameters.pointer) ?? "mp4a.40.2"
      audioForRungs = (parameters, encoder.timeBase, codec)
    }

    let sourceRate = input.videoFrameRate
    let workers = try zip(job.rungs, sinks).map { rung, sink -> RungWorker in
      guard let rate = rung.fps ?? sourceRate else {
        throw PackError.input(path: input.path, reason: "the video frame rate cannot be read; set \"fps\" for rung \(rung.name)")
      }
      return try RungWorker(
        rung: rung, rate: rate, segmentDuration: job.segmentDuration, container: job.container, bitExact: job.bitExact,
        audio: audioForRungs, sink: sink)
    }
    workers.forEach { $0.start() }

    var feeding = true
    func broadcast(_ make: () throws -> RungWorker.Item) throws {
      for worker in workers where !worker.queue.put(try make()) { feeding = false }
    }
    func drainAudio() throws {
      guard let encoder = audio?.encoder else { return }
      let packet = try Packet()
      while try encoder.receive(into: packet) {
        defer { av_packet_unref(packet.pointer) }
        try broadcast { .audio(try Packet(referencing: packet.pointer)) }
      }
    }

    let frame = try Frame()
    var lastSeconds = -1.0
    let frameStep = 1 / (sourceRate?.value ?? 25)
    func receiveVideo() throws {
      while feeding, try video.receive(into: frame) {
        defer { av_frame_unref(frame.pointer) }
        let pts = frame.pointer.pointee.best_effort_timestamp
        let seconds = pts == hlspack_nopts_value()
          ? lastSeconds + frameStep : Double(pts) * video.timeBase.seconds - videoStart
        lastSeconds = seconds
        try broadcast { .video(try Frame(referencing: frame.pointer), seconds: seconds) }
        progress(max(0, seconds))
      }
    }
    func receiveAudio() throws {
      guard let audio else { return }
      while feeding, try audio.decoder.receive(into: frame) {
        defer { av_frame_unref(frame.pointer) }
        try audio.converter.push(frame.pointer)
        try encodeAudio(final: false)
      }
    }
    func encodeAudio(final: Bool) throws {
      guard let audio else { return }
      while let chunk = try audio.converter.pop(final: final) {
        try audio.encoder.send(chunk.pointer)
        try drainAudio()
      }
    }

    var decodeErrors = 0
    var producerError: Error?
    do {
      let packet = try Packet()
      while feeding, try input.read(into: packet) {
        defer { av_packet_unref(packet.pointer) }
        let index = packet.pointer.pointee.stream_index
        if index == input.videoStreamIndex {
          // A damaged packet is skipped as the ffmpeg CLI does; the frame count shows it.
          do { try video.send(packet) } catch { decodeErrors += 1 }
          try receiveVideo()
        } else if let audio, index == input.audioStreamIndex {
          do { try audio.decoder.send(packet) } catch { decodeErrors += 1 }
          try receiveAudio()
        }
      }
      if feeding {
        try video.send(nil)
        try receiveVideo()
        if let audio {
          try audio.decoder.send(nil)
          try receiveAudio()
          try audio.converter.push(nil)
          try encodeAudio(final: true)
          try audio.encoder.send(nil)
          try drainAudio()
        }
      }
    } catch {
      producerError = error
      workers.forEach { $0.queue.abort() }
    }
    workers.forEach { $0.queue.close() }
    workers.forEach { $0.join() }

    if let producerError { throw producerError }
    for worker in workers {
      if let failure = worker.failure { throw PackError.media(path: input.path, reason: "rung \(worker.rung.name): \(failure)") }
    }
    guard lastSeconds >= 0 else {
      throw PackError.input(path: input.path, reason: "no video frame could be decoded (\(decodeErrors) damaged packets)")
    }
    return workers.map { $0.facts ?? WrittenStreamFacts(codecs: [], width: 0, height: 0, frameRate: 0, videoFrames: 0) }
  }

  private static func startSeconds(_ stream: UnsafeMutablePointer<AVStream>) -> Double {
    let start = stream.pointee.start_time
    return start == hlspack_nopts_value() ? 0 : Double(start) * stream.pointee.time_base.seconds
  }
}
