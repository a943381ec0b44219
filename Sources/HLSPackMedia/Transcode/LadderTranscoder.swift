internal import CFFmpeg
import Foundation
import HLSPackCore

/// What the transcoder needs to know about one job.
public struct LadderJob: Sendable {
  public var rungs: [VideoRung]
  /// Audio muxed into every rung.
  public var audio: AudioSettings?
  /// Alternate audio renditions, each its own audio-only segments.
  public var audioRenditions: [AudioRendition] = []
  public var output: RenditionOutput
  /// The cores this asset's decoder and encoders may keep busy; nil lets each
  /// choose from the machine (FFmpeg's automatic count). A batch making
  /// several assets at once shares the cores this way.
  public var coreShare: Int?
  /// Burn test labels (name, size, bit rate, frame number, time, QR code)
  /// into every rung's pictures after scaling; off for normal encodes.
  public var labels = false
  /// Set for an HDR source: rungs are HEVC Main 10 that keep its colours and
  /// repeat its HDR10 metadata.
  var hdr: HDRMetadata?

  /// Threads per video encoder: each rung's encoder runs beside the others.
  var encoderThreads: Int { coreShare.map { max(1, $0 / max(1, rungs.count)) } ?? 0 }

  public init(rungs: [VideoRung], audio: AudioSettings?, output: RenditionOutput) {
    self.rungs = rungs
    self.audio = audio
    self.output = output
  }
}

/// Decodes a source once and feeds every rung's worker from that one decode;
/// audio is encoded once and the same packets are muxed into every rung.
public final class LadderTranscoder: RenditionProducer {
  private let input: MediaInput
  private let job: LadderJob

  /// Opens and checks the source; fails with `PackError.input` naming the file.
  public init(path: String, job: LadderJob) throws {
    input = try MediaInput(path: path)
    // Profile 5's pictures are IPT-PQ-c2, which only a Dolby Vision display
    // maps to colour; profiles 7 and 8 have an HDR10, SDR or HLG base layer.
    if let dolbyVision = input.videoDolbyVision, dolbyVision.profile == 5 {
      throw PackError.input(
        path: path,
        reason:
          "video stream #\(input.videoStreamIndex) is Dolby Vision profile 5, whose pictures are in no standard colour space; encoded rungs of it would show wrong colours"
      )
    }
    var job = job
    if input.videoRange != .sdr {
      try HDRRungs.check(job, input: input)
      job.hdr = try HDRMetadata.probe(path: path)
    }
    self.job = job
  }

  /// The video's length in seconds, when known (for progress).
  public var duration: Double? { input.contentDuration }
  public var hasAudio: Bool { input.audioStreamIndex != nil }

  /// The rung's output frame rate: its own, else the source's.
  private func rate(of rung: VideoRung) -> FrameRate? { rung.fps ?? input.videoFrameRate }

  public var notes: [String] {
    var notes: [String] = []
    if input.videoStreamCount > 1 {
      notes.append(
        "\(input.path): has \(input.videoStreamCount) video streams; stream #\(input.videoStreamIndex), FFmpeg's choice (the default one, else the one with the highest bit rate), is encoded"
      )
    }
    // The picture's size as shown, so that a portrait source is compared upright,
    // against the size it is scaled to (inside the bars, when padded).
    if let shown = input.videoShownSize {
      for rung in job.rungs {
        let scaled = rung.fit.placement(width: rung.width, height: rung.height, aspect: input.videoPictureAspect)
        guard Double(scaled.width) > shown.width + 1 || Double(scaled.height) > shown.height + 1 else { continue }
        let size = "\(Int(shown.width.rounded()))x\(Int(shown.height.rounded()))"
        let picture =
          scaled.width == rung.width && scaled.height == rung.height
          ? "" : ", a \(scaled.width)x\(scaled.height) picture"
        notes.append(
          "\(input.path): rung \(rung.name) (\(rung.width)x\(rung.height)\(picture)) is larger than the source's picture (\(size) as shown): it is upscaled"
        )
      }
    }
    let misalignment = boundaryMisalignment
    if misalignment > 0.001 {
      notes.append(
        "\(input.path): the rungs' frame rates cannot cut segments at the same times (up to \(String(format: "%.0f", misalignment * 1000)) ms apart); aligned variants need rates with a whole number of frames per segment, or rates that share their frame times"
      )
    }
    if let source = input.videoPictureAspect {
      // Rungs have square pixels at the size asked for: another shape stretches the picture.
      for rung in job.rungs where rung.fit == .stretch {
        let aspect = Double(rung.width) / Double(rung.height)
        if abs(aspect / source - 1) > 0.02 {
          notes.append(
            "\(input.path): rung \(rung.name) is \(rung.width)x\(rung.height) (\(String(format: "%.3f", aspect)):1) but the source's picture is \(String(format: "%.3f", source)):1 as shown; it is stretched to fit (\"fit\": \"pad\" keeps its shape)"
          )
        }
      }
    }
    return notes
  }

  /// How far apart, in seconds, the rungs' frame rates put the same segment
  /// boundary (0 when they share their boundary times).
  private var boundaryMisalignment: Double {
    let schedules = job.rungs.compactMap { rung in
      rate(of: rung).map { KeyframeSchedule(segmentDuration: job.output.segmentDuration, rate: $0) }
    }
    let segments = Int64(saturating: ((input.contentDuration ?? 60) / job.output.segmentDuration).rounded(.up))
    return KeyframeSchedule.misalignment(schedules, segments: min(max(segments, 1), 10_000))
  }

  public func run(destinations: [SegmentDestination], progress: (Double) -> Void) throws -> [WrittenStreamFacts] {
    do {
      return try transcode(job, destinations: destinations, progress: progress)
    } catch let error as PackError {
      throw error
    } catch {
      throw PackError.media(path: input.path, reason: "\(error)")
    }
  }

  private func transcode(_ job: LadderJob, destinations: [SegmentDestination], progress: (Double) -> Void) throws
    -> [WrittenStreamFacts]
  {
    let videoStream = input.stream(input.videoStreamIndex)
    let video = try Decoder(stream: videoStream, describing: "video", threads: job.coreShare ?? 0)
    let videoStart = videoStream.startSeconds

    var workers: [RungWorker] = []
    var feeding = true
    func broadcast(_ make: () throws -> RungWorker.Item) throws {
      for worker in workers where !worker.queue.put(try make()) { feeding = false }
    }
    let audio = try audioOutputs(job, destinations: destinations, videoStart: videoStart) { packet in
      try broadcast { .audio(try Packet(referencing: packet.pointer)) }
    }
    let (chains, renditionMuxers) = (audio.chains, audio.renditionMuxers)

    let sourceRate = input.videoFrameRate
    workers = try zip(job.rungs, destinations).map { rung, destination in
      try rungWorker(rung, job: job, audio: audio.muxed, destination: destination)
    }
    workers.forEach { $0.start() }

    let frame = try Frame()
    let deinterlacer = try Deinterlacer()
    var lastSeconds = -1.0
    let frameStep = 1 / (sourceRate?.value ?? 25)
    func receiveVideo() throws {
      while feeding, try video.receive(into: frame) {
        defer { av_frame_unref(frame.pointer) }
        let pts = frame.pointer.pointee.best_effort_timestamp
        let seconds =
          pts == hlspack_nopts_value()
          ? lastSeconds + frameStep : Double(pts) * video.timeBase.seconds - videoStart
        lastSeconds = seconds
        let picture =
          frame.pointer.pointee.interlaced_frame != 0 ? try deinterlacer.progressive(frame.pointer) : frame.pointer
        try broadcast { .video(try Frame(referencing: picture), seconds: seconds) }
        for muxer in renditionMuxers { try muxer.release(before: seconds) }
        progress(max(0, seconds))
      }
    }

    var decodeErrors = 0
    var producerError: Error?
    var audioFacts: [WrittenStreamFacts] = []
    do {
      let packet = try Packet()
      while feeding, try input.read(into: packet) {
        defer { av_packet_unref(packet.pointer) }
        let index = packet.pointer.pointee.stream_index
        if index == input.videoStreamIndex {
          // A damaged packet is skipped as the ffmpeg CLI does; the frame count shows it.
          do { try video.send(packet) } catch { decodeErrors += 1 }
          try receiveVideo()
        } else {
          for chain in chains where chain.sourceIndex == index { try chain.send(packet) }
        }
      }
      if feeding {
        try video.send(nil)
        try receiveVideo()
        for chain in chains { try chain.finish() }
        let videoEnd = lastSeconds >= 0 ? lastSeconds + frameStep : nil
        audioFacts = try renditionMuxers.map { try $0.finish(videoEnd: videoEnd) }
      }
    } catch {
      producerError = error
      workers.forEach { $0.queue.abort() }
    }
    workers.forEach { $0.queue.close() }
    workers.forEach { $0.join() }

    if let producerError { throw producerError }
    return try videoFacts(workers, decodedAny: lastSeconds >= 0, decodeErrors: decodeErrors) + audioFacts
  }

  /// The audio chains that read the source's audio, the audio muxed into every
  /// rung (its chain hands each packet to `deliver`), and the muxers of the
  /// alternate audio renditions, which come after the rungs in `destinations`.
  private func audioOutputs(
    _ job: LadderJob, destinations: [SegmentDestination], videoStart: Double,
    deliver: @escaping (Packet) throws -> Void
  ) throws -> (
    chains: [AudioChain], muxed: (parameters: CodecParameters, timeBase: AVRational, codec: String)?,
    renditionMuxers: [AudioRenditionMuxer]
  ) {
    let muxed = try muxedAudioChain(job, videoStart: videoStart, deliver: deliver)
    // Alternate audio renditions are muxed on this thread: audio is light work.
    let renditions = try audioRenditionMuxers(
      job, destinations: destinations.dropFirst(job.rungs.count), videoStart: videoStart)
    let chains = (muxed.map { [$0.chain] } ?? []) + renditions.map(\.chain)
    return (chains, muxed?.audio, renditions.map(\.muxer))
  }

  /// The audio muxed into every rung, encoded once; its chain hands each packet to `deliver`.
  private func muxedAudioChain(
    _ job: LadderJob, videoStart: Double, deliver: @escaping (Packet) throws -> Void
  ) throws -> (chain: AudioChain, audio: (parameters: CodecParameters, timeBase: AVRational, codec: String))? {
    guard let settings = job.audio, let index = input.audioStreamIndex else { return nil }
    let chain = try AudioChain(
      input: input, sourceIndex: index, settings: settings, videoStart: videoStart, output: job.output, deliver: deliver
    )
    let parameters = try chain.parameters()
    return (chain, (parameters, chain.encoder.timeBase, audioCodecString(parameters.pointer) ?? "mp4a.40.2"))
  }

  /// Each alternate audio rendition's muxer, with the audio chain that feeds it.
  private func audioRenditionMuxers(
    _ job: LadderJob, destinations: ArraySlice<SegmentDestination>, videoStart: Double
  ) throws -> [(chain: AudioChain, muxer: AudioRenditionMuxer)] {
    var made: [(chain: AudioChain, muxer: AudioRenditionMuxer)] = []
    for (rendition, destination) in zip(job.audioRenditions, destinations) {
      let index = try input.audioStream(rendition.track, for: rendition.name)
      var muxer: AudioRenditionMuxer?
      let chain = try AudioChain(
        input: input, sourceIndex: index, settings: rendition.settings, videoStart: videoStart, output: job.output
      ) { packet in try muxer?.write(packet) }
      muxer = try AudioRenditionMuxer(
        parameters: try chain.parameters(), timeBase: chain.encoder.timeBase, output: job.output,
        destination: destination)
      if let muxer { made.append((chain, muxer)) }
    }
    return made
  }

  /// The worker of one rung, its frame rate checked against its level.
  private func rungWorker(
    _ rung: VideoRung, job: LadderJob, audio: (parameters: CodecParameters, timeBase: AVRational, codec: String)?,
    destination: SegmentDestination
  ) throws -> RungWorker {
    guard let rate = rate(of: rung) else {
      throw PackError.input(
        path: input.path, reason: "the video frame rate cannot be read; set \"fps\" for rung \(rung.name)")
    }
    if rung.fps == nil, let level = rung.level.flatMap({ CodecLevel(codec: rung.codec, name: $0) }),
      let problem = level.rateProblem(width: rung.width, height: rung.height, rate: rate)
    {
      throw PackError.input(
        path: input.path,
        reason:
          "rung \(rung.name) takes the source's frame rate: \(problem); set a higher \"level\" or an \"fps\" for the rung"
      )
    }
    return try RungWorker(
      rung: rung, rate: rate, output: job.output, threads: job.encoderThreads, source: input, audio: audio,
      labels: job.labels ? try LabelOverlay(rung: rung, rate: rate) : nil, destination: destination,
      picture: RungPicture(rung: rung, source: input, sourceHDR: job.hdr))
  }

  /// What the finished rungs wrote; throws the first rung's failure, naming the rung.
  private func videoFacts(_ workers: [RungWorker], decodedAny: Bool, decodeErrors: Int) throws -> [WrittenStreamFacts] {
    for worker in workers {
      guard let failure = worker.failure else { continue }
      // A file that cannot be written is the output's failure, and names that file.
      if case .output? = failure as? PackError { throw failure }
      throw PackError.media(path: input.path, reason: "rung \(worker.rung.name): \(failure)")
    }
    guard decodedAny else {
      throw PackError.input(
        path: input.path, reason: "no video frame could be decoded (\(decodeErrors) damaged packets)")
    }
    return workers.map { $0.facts ?? WrittenStreamFacts(codecs: [], width: 0, height: 0, frameRate: 0, videoFrames: 0) }
  }
}
