internal import CFFmpeg
import Foundation
import HLSPackCore

/// One copied rendition: reads its source's packets, normalizes timestamps to
/// start at zero, cuts at the first keyframe at or after every multiple of the
/// segment duration, and refuses segments longer than the target + 0.5 s.
final class RenditionRemuxer: @unchecked Sendable {
  let name: String
  let input: MediaInput
  private let copyAudio: Bool
  private let segmentDuration: Double
  private let muxer: SegmentMuxer
  private let limit: DurationGuard
  private let videoTimeBase: AVRational
  private let hevc: Bool
  private let videoParameters: CodecParameters
  /// TS with SAMPLE-AES: H.264 from MP4 becomes Annex B before the encryptor sees it.
  private let annexB: BitstreamFilter?
  /// fMP4: parameter sets and AUDs leave the samples for the sample entry.
  private let inBand: InBandParameterSets?
  private let audioCodec: String?
  /// fMP4 from MPEG-TS: AAC frames lose their ADTS headers.
  private let audioFilter: BitstreamFilter?
  /// fMP4 keeps the source's display matrix: a quarter turn is shown with width and height swapped.
  private let showsSidesSwapped: Bool
  /// A Dolby Vision profile 8 source's configuration: its RPUs stay in the samples.
  private let dolbyVision: DolbyVisionConfiguration?
  /// The last video packet, held until the next one's decode time gives its
  /// duration: the mov muxer gives a fragment's last sample the packet's own
  /// duration and starts the next fragment after it, and copied sources can
  /// state it wrongly (FFmpeg 5.1 reads every frame of a variable-rate MP4 as
  /// its shortest; Matroska rounds to milliseconds).
  private var heldVideo: (packet: Packet, opensSegment: Bool)?
  private(set) var failure: Error?
  private(set) var facts: WrittenStreamFacts?
  var segmentStarts: [Int64] { limit.starts }
  var end: Int64 { limit.end }

  init(name: String, input: MediaInput, copyAudio: Bool, output: RenditionOutput, destination: SegmentDestination)
    throws
  {
    self.name = name
    self.input = input
    self.copyAudio = copyAudio
    segmentDuration = output.segmentDuration
    let container = output.container
    limit = DurationGuard(rendition: name, path: input.path, target: segmentDuration, next: destination.sink)
    let video = input.stream(input.videoStreamIndex)
    videoTimeBase = video.pointee.time_base
    videoParameters = try CodecParameters(copying: video.pointee.codecpar)
    hevc = video.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_HEVC
    guard [AV_CODEC_ID_H264, AV_CODEC_ID_HEVC].contains(video.pointee.codecpar.pointee.codec_id) else {
      throw PackError.input(
        path: input.path,
        reason: "video stream is \(Self.codecName(video)), not H.264 or HEVC; it cannot be copied into HLS")
    }
    dolbyVision = try Self.copiedDolbyVision(of: input, rendition: name, hevc: hevc, into: container)
    let audio = try copyAudio ? Self.copiedAudio(of: input, into: container) : nil
    audioCodec = audio?.codec
    audioFilter = audio?.filter
    var muxedVideo = videoParameters
    if container == .ts, destination.sampleEncryptor != nil,
      video.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_H264,
      video.pointee.codecpar.pointee.extradata_size > 0, video.pointee.codecpar.pointee.extradata?.pointee == 1
    {
      let filter = try BitstreamFilter(
        name: "h264_mp4toannexb", parameters: video.pointee.codecpar, timeBase: videoTimeBase)
      muxedVideo = try CodecParameters(copying: filter.outputParameters)
      annexB = filter
      inBand = nil
    } else if container == .fmp4 {
      do {
        inBand = try InBandParameterSets(configuration: videoParameters.extradata, hevc: hevc)
      } catch {
        throw PackError.input(
          path: input.path, reason: "rendition \(name): the video's decoder configuration cannot be read (\(error))")
      }
      if hevc {
        muxedVideo = try CodecParameters(copying: video.pointee.codecpar)
        try muxedVideo.replaceExtradata(with: InBandParameterSets.completeHVCC(muxedVideo.extradata))
      }
      annexB = nil
    } else {
      annexB = nil
      inBand = nil
    }
    // Copies are muxed bit-exact in every run: with no encoder, nothing else in them varies.
    let muxing = RenditionOutput(container: container, segmentDuration: segmentDuration, reproducible: true)
    muxer = try SegmentMuxer(
      output: muxing, video: muxedVideo, videoTimeBase: videoTimeBase,
      audio: audio?.parameters, audioTimeBase: audio?.timeBase,
      videoSideData: CopiedVideoSideData(displayMatrix: input.videoDisplayMatrix, dolbyVision: dolbyVision),
      destination: SegmentDestination(sink: limit, sampleEncryptor: destination.sampleEncryptor))
    showsSidesSwapped = container == .fmp4 && input.videoOrientation.swapsSides
  }

  /// A Dolby Vision source's configuration, which fMP4 keeps in the sample
  /// entry beside the RPUs the samples carry; nil for other sources. Only
  /// profile 8 is copied, into fMP4: FFmpeg 5.1's MPEG-TS muxer writes no
  /// DOVI descriptor, and Apple's HLS Authoring Specification puts HEVC in fMP4.
  private static func copiedDolbyVision(
    of input: MediaInput, rendition name: String, hevc: Bool, into container: Container
  ) throws -> DolbyVisionConfiguration? {
    guard let configuration = input.videoDolbyVision else { return nil }
    let stream = "rendition \(name): video stream #\(input.videoStreamIndex)"
    if let refusal = configuration.copyRefusal(baseLayerRange: input.videoRange) {
      throw PackError.input(path: input.path, reason: "\(stream) cannot be copied: \(refusal)")
    }
    guard hevc else {
      throw PackError.input(
        path: input.path, reason: "\(stream) declares Dolby Vision profile 8, which is HEVC, but it is H.264")
    }
    guard container == .fmp4 else {
      throw PackError.input(
        path: input.path,
        reason:
          "\(stream) is Dolby Vision profile 8, which hlspack copies into fMP4 only (MPEG-TS would not say it is Dolby Vision); use \"container\": \"fmp4\""
      )
    }
    return configuration
  }

  /// The source's audio as it is copied: its parameters, time base and CODECS string, and the
  /// filter its packets pass through; nil when there is no audio stream.
  private static func copiedAudio(of input: MediaInput, into container: Container) throws -> CopiedAudio? {
    guard let index = input.audioStreamIndex else { return nil }
    let stream = input.stream(index)
    guard let codec = audioCodecString(stream.pointee.codecpar) else {
      throw PackError.input(
        path: input.path, reason: "audio stream is \(Self.codecName(stream)), which cannot be copied into HLS")
    }
    // FFmpeg 5.1's mov muxer calls AC-3 in MP4 experimental and refuses it.
    if container == .fmp4, [AV_CODEC_ID_AC3, AV_CODEC_ID_EAC3].contains(stream.pointee.codecpar.pointee.codec_id) {
      throw PackError.input(
        path: input.path,
        reason:
          "audio stream is \(Self.codecName(stream)), which hlspack does not put in fMP4; use \"container\": \"ts\" or transcode the audio"
      )
    }
    let parameters = try CodecParameters(copying: stream.pointee.codecpar)
    var filter: BitstreamFilter?
    if container == .fmp4, parameters.pointer.pointee.codec_id == AV_CODEC_ID_AAC, parameters.extradata.isEmpty {
      // AAC from MPEG-TS is ADTS: MP4 wants its AudioSpecificConfig in the
      // sample entry and frames without ADTS headers (aac_adtstoasc).
      let p = parameters.pointer.pointee
      guard
        let config = AudioSpecificConfig.fromADTSFields(
          profile: Int(p.profile), sampleRate: Int(p.sample_rate), channels: Int(p.ch_layout.nb_channels))
      else {
        throw PackError.input(
          path: input.path,
          reason:
            "the ADTS AAC audio (profile \(p.profile), \(p.sample_rate) Hz, \(p.ch_layout.nb_channels) channels) has no AudioSpecificConfig that fMP4 can carry; use \"container\": \"ts\""
        )
      }
      try parameters.replaceExtradata(with: config)
      filter = try BitstreamFilter(
        name: "aac_adtstoasc", parameters: parameters.pointer, timeBase: stream.pointee.time_base)
    }
    return CopiedAudio(parameters: parameters, timeBase: stream.pointee.time_base, codec: codec, filter: filter)
  }

  /// Where the package's time starts, in the video's time base, and the
  /// packets read to find it: the video stream's start, or its first packet's
  /// time when that is earlier. A source cut with an edit list (`ffmpeg -ss …
  /// -c copy`) leads with the pictures its first shown one is decoded from,
  /// which FFmpeg marks discarded and puts before 0; they are copied (TS
  /// cannot hide them) and counted, as the ffmpeg CLI's HLS muxer counts them,
  /// so that an fMP4 package's edit list skips only its own B-frame delay and
  /// its pictures sit where its playlists say.
  private func packageStart() throws -> (start: Int64, packets: [Packet]) {
    let stream = input.stream(input.videoStreamIndex).pointee
    let declared = stream.start_time == hlspack_nopts_value() ? 0 : stream.start_time
    var packets: [Packet] = []
    // Files interleave their streams within a second or so; past that the declared start stands.
    while packets.count < 1000 {
      let packet = try Packet()
      guard try input.read(into: packet) else { break }
      packets.append(packet)
      if packet.pointer.pointee.stream_index == input.videoStreamIndex {
        return (min(declared, Self.known(packet.pointer.pointee.pts) ?? declared), packets)
      }
    }
    return (declared, packets)
  }

  /// A timestamp, or nil for FFmpeg's "no value".
  private static func known(_ timestamp: Int64) -> Int64? {
    timestamp == hlspack_nopts_value() ? nil : timestamp
  }

  /// One frame in the video's time base, for packets that carry no duration.
  private var frameDuration: Int64 {
    guard let rate = input.videoFrameRate else { return 1 }
    return av_rescale_q(1, AVRational(num: Int32(rate.denominator), den: Int32(rate.numerator)), videoTimeBase)
  }

  private static func codecName(_ stream: UnsafeMutablePointer<AVStream>) -> String {
    avcodec_get_name(stream.pointee.codecpar.pointee.codec_id).map { String(cString: $0) } ?? "unknown"
  }

  func runCatching(_ progress: (Double) -> Void) {
    do {
      try run(progress)
    } catch {
      failure = error
    }
  }

  private func run(_ progress: (Double) -> Void) throws {
    let videoStream = input.stream(input.videoStreamIndex)
    let (start, leading) = try packageStart()
    var timestamps = DecodeTimestamps(
      reorderDelay: Int(videoStream.pointee.codecpar.pointee.video_delay), frameDuration: frameDuration)
    var closedGOPs = ClosedGOPCheck(
      rendition: name, path: input.path, hevc: hevc,
      lengthSize: RandomAccess.lengthSize(configuration: videoParameters.extradata, hevc: hevc))
    // Reversed, so that each is let go of as it is handed on.
    var readAhead = Array(leading.reversed())
    let reused = try Packet()
    // The packets read ahead, then the rest of the input.
    func nextPacket() throws -> Packet? {
      if let packet = readAhead.popLast() { return packet }
      av_packet_unref(reused.pointer)
      return try input.read(into: reused) ? reused : nil
    }
    var boundaries = SegmentBoundaries(segmentDuration: segmentDuration, first: 0)
    var wroteVideo = false
    while let packet = try nextPacket() {
      let p = packet.pointer
      if p.pointee.stream_index == input.videoStreamIndex {
        let filled: (pts: Int64, dts: Int64)
        do {
          filled = try timestamps.next(
            pts: Self.known(p.pointee.pts), dts: Self.known(p.pointee.dts), duration: p.pointee.duration)
        } catch {
          throw PackError.input(path: input.path, reason: "\(error)")
        }
        p.pointee.pts = filled.pts - start
        p.pointee.dts = filled.dts - start
        let seconds = Double(p.pointee.pts) * videoTimeBase.seconds
        var opens = false
        if packet.isKeyframe, boundaries.reaches(seconds) {
          opens = wroteVideo
          try closedGOPs.open(segmentAt: seconds, packet.bytes)
        } else {
          try closedGOPs.follow(at: seconds, packet.bytes)
        }
        try moveParameterSetsOut(of: packet, at: seconds)
        if let annexB {
          let keyframe = packet.isKeyframe
          for (i, converted) in try annexB.filter(try Packet(referencing: p)).enumerated() {
            try writeVideo(converted, opensSegment: opens && keyframe && i == 0)
          }
        } else {
          try writeVideo(try Packet(referencing: p), opensSegment: opens)
        }
        wroteVideo = true
        progress(seconds)
      } else if copyAudio, let audioIndex = input.audioStreamIndex, p.pointee.stream_index == audioIndex {
        try writeAudio(packet, stream: audioIndex, packageStart: start)
      }
    }
    if let held = heldVideo { try muxer.writeVideo(held.packet, opensSegment: held.opensSegment) }
    try muxer.finish()
    let parameters = videoParameters.pointer.pointee
    let video = CodecString.video(hevc: hevc, parameterSets: muxer.firstKeyframe, extradata: videoParameters.extradata)
    // Copied pictures keep their pixels' shape: an anamorphic source is declared at the size it is shown.
    let width = WrittenStreamFacts.displayWidth(
      codedWidth: Int(parameters.width),
      sampleAspect: (Int(parameters.sample_aspect_ratio.num), Int(parameters.sample_aspect_ratio.den)))
    let (shownWidth, shownHeight) =
      showsSidesSwapped ? (Int(parameters.height), width) : (width, Int(parameters.height))
    facts = WrittenStreamFacts(
      codecs: [video, audioCodec].compactMap { $0 }, width: shownWidth, height: shownHeight,
      frameRate: muxer.frameRate, videoFrames: muxer.frames,
      videoRange: VideoRange(transferCharacteristics: Int(parameters.color_trc.rawValue)), dolbyVision: dolbyVision)
  }
}

extension RenditionRemuxer {
  /// fMP4: takes in-band parameter sets out of a sample, refusing ones the sample entry does not hold.
  private func moveParameterSetsOut(of packet: Packet, at seconds: Double) throws {
    switch inBand?.inspect(packet.bytes) ?? .unchanged {
    case .unchanged: break
    case .stripped(let sample): try packet.replacePayload(with: sample)
    case .unrecorded(let type):
      throw PackError.input(
        path: input.path,
        reason: String(
          format:
            "rendition %@: the picture at %.3f s carries a parameter set (NAL type %d) that the sample entry does not hold; fMP4 holds one set per stream, so a source that changes them mid-stream cannot be copied into it",
          name, seconds, type))
    }
  }

  /// Writes a copy of an audio packet, its time counted from `packageStart` (in the video's time base).
  private func writeAudio(_ packet: Packet, stream audioIndex: Int32, packageStart start: Int64) throws {
    let p = packet.pointer
    // Audio is never reordered: either timestamp stands for the other.
    guard let time = Self.known(p.pointee.dts) ?? Self.known(p.pointee.pts) else {
      throw PackError.input(path: input.path, reason: "an audio packet has no timestamps")
    }
    let tb = input.stream(audioIndex).pointee.time_base
    let shift = av_rescale_q(start, videoTimeBase, tb)
    let copy = try Packet(referencing: p)
    copy.pointer.pointee.pts = (Self.known(p.pointee.pts) ?? time) - shift
    copy.pointer.pointee.dts = time - shift
    if let audioFilter {
      for frame in try audioFilter.filter(copy) { try muxer.writeAudio(frame) }
    } else {
      try muxer.writeAudio(copy)
    }
  }

  /// Writes the held video packet, with the time up to `packet` as its
  /// duration, and holds `packet`.
  private func writeVideo(_ packet: Packet, opensSegment: Bool) throws {
    if let held = heldVideo {
      let gap = packet.pointer.pointee.dts - held.packet.pointer.pointee.dts
      if gap > 0 { held.packet.pointer.pointee.duration = gap }
      try muxer.writeVideo(held.packet, opensSegment: held.opensSegment)
    }
    heldVideo = (packet, opensSegment)
  }
}

/// A copied audio stream, as `RenditionRemuxer` muxes it.
private struct CopiedAudio {
  var parameters: CodecParameters
  var timeBase: AVRational
  /// Its CODECS string.
  var codec: String
  /// fMP4 from MPEG-TS: strips the AAC frames' ADTS headers.
  var filter: BitstreamFilter?
}

/// Passes segments on, refusing one longer than the target + 0.5 s (Apple's
/// limit, Apple HLS Authoring Spec 7.5), and remembers where each segment starts and where
/// the last one ends.
final class DurationGuard: SegmentSink {
  let rendition: String
  let path: String
  let target: Double
  let next: SegmentSink
  private(set) var starts: [Int64] = []
  private(set) var end: Int64 = 0

  init(rendition: String, path: String, target: Double, next: SegmentSink) {
    self.rendition = rendition
    self.path = path
    self.target = target
    self.next = next
  }

  func acceptInitialization(_ bytes: [UInt8]) throws { try next.acceptInitialization(bytes) }
  func acceptBytes(_ bytes: [UInt8]) throws { try next.acceptBytes(bytes) }

  func accept(_ segment: MediaSegment) throws {
    let limit = Int64((target + 0.5) * Double(MediaClock.ticksPerSecond))
    if segment.durationTicks > limit {
      let start = MediaClock.seconds(segment.startTicks - MediaClock.timelineOffset)
      throw PackError.media(
        path: path,
        reason: String(
          format:
            "rendition %@: the segment starting at %.3f s lasts %.3f s, more than the target %@ s + 0.5 s; the source's keyframes are too far apart",
          rendition, start, MediaClock.seconds(segment.durationTicks),
          target.rounded() == target ? String(Int(target)) : String(target)))
    }
    starts.append(segment.startTicks)
    end = segment.startTicks + segment.durationTicks
    try next.accept(segment)
  }
}
