internal import CFFmpeg
import Foundation
import HLSPackCore

/// An opened source file: the demuxer and the streams hlspack takes from it.
final class MediaInput {
  let path: String
  private var context: UnsafeMutablePointer<AVFormatContext>?
  let videoStreamIndex: Int32
  let audioStreamIndex: Int32?

  init(path: String) throws {
    self.path = path
    guard FileManager.default.isReadableFile(atPath: path) else {
      let exists = FileManager.default.fileExists(atPath: path)
      throw PackError.input(path: path, reason: exists ? "cannot be read (permission denied)" : "no such file")
    }
    var ctx: UnsafeMutablePointer<AVFormatContext>?
    let opened = avformat_open_input(&ctx, path, nil, nil)
    guard opened >= 0, let ctx else {
      throw PackError.input(
        path: path,
        reason: Self.oversizedPicture(path) ?? "not a media file FFmpeg can read (\(FFmpegError.message(for: opened)))")
    }
    context = ctx
    let info = avformat_find_stream_info(ctx, nil)
    if info < 0 {
      avformat_close_input(&context)
      throw PackError.input(
        path: path, reason: "cannot read the stream information (\(FFmpegError.message(for: info)))")
    }
    let video = av_find_best_stream(ctx, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
    guard video >= 0 else {
      avformat_close_input(&context)
      throw PackError.input(path: path, reason: "has no video stream")
    }
    // FFmpeg prefers real video to a still; when a still is all there is, it is cover art.
    if ctx.pointee.streams[Int(video)].unsafelyUnwrapped.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 {
      avformat_close_input(&context)
      throw PackError.input(path: path, reason: "has no video stream, only cover art (an attached picture)")
    }
    videoStreamIndex = video
    let audio = av_find_best_stream(ctx, AVMEDIA_TYPE_AUDIO, -1, video, nil, 0)
    audioStreamIndex = audio >= 0 ? audio : nil
  }

  deinit { avformat_close_input(&context) }

  /// A YUV4MPEG2 header declaring a picture larger than FFmpeg takes
  /// (av_image_check_size) fails to open with a meaningless error (FFmpeg 5.1
  /// adds the frame header's 6 bytes to AVERROR(EINVAL): "Device or resource
  /// busy"); the header's first line says what is wrong.
  private static func oversizedPicture(_ path: String) -> String? {
    guard let file = FileHandle(forReadingAtPath: path), let bytes = try? file.read(upToCount: 256) else { return nil }
    try? file.close()
    let line = String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self).split(separator: " ")
    guard line.first == "YUV4MPEG2" else { return nil }
    let size = { (tag: Character) in line.first { $0.first == tag }.flatMap { Int32($0.dropFirst()) } }
    guard let width = size("W"), let height = size("H"),
      av_image_check_size(UInt32(clamping: width), UInt32(clamping: height), 0, nil) < 0
    else { return nil }
    return "its YUV4MPEG2 header declares a \(width)x\(height) picture, larger than FFmpeg can decode"
  }

  private var ctx: UnsafeMutablePointer<AVFormatContext> {
    // Set in init and cleared only in deinit.
    context.unsafelyUnwrapped
  }

  var formatMetadata: OpaquePointer? { ctx.pointee.metadata }

  func stream(_ index: Int32) -> UnsafeMutablePointer<AVStream> {
    ctx.pointee.streams[Int(index)].unsafelyUnwrapped
  }

  /// The container's duration in seconds, when it declares one.
  var duration: Double? {
    let d = ctx.pointee.duration
    return d > 0 && d != hlspack_nopts_value() ? Double(d) / Double(AV_TIME_BASE) : nil
  }

  /// Where a stream's packets end, in its time base, when the header declares
  /// its length (MP4 declares each track's); nil when libavformat only
  /// estimated it (MPEG-TS) or nothing says.
  func declaredEnd(of index: Int32) -> Int64? {
    let s = stream(index).pointee
    guard ctx.pointee.duration_estimation_method == AVFMT_DURATION_FROM_STREAM, s.duration > 0,
      s.duration != hlspack_nopts_value()
    else { return nil }
    return (s.start_time == hlspack_nopts_value() ? 0 : s.start_time) + s.duration
  }

  /// How to turn (and mirror) the video to show it as players do: phones
  /// store pictures as the sensor saw them plus a display matrix that players apply.
  var videoOrientation: PictureOrientation {
    guard let matrix = videoDisplayMatrix else { return .upright }
    return PictureOrientation(displayMatrix: matrix, counterclockwiseDegrees: av_display_rotation_get(matrix))
  }

  /// The video's display matrix (3×3, 16.16 fixed point, row by row), if it has one.
  var videoDisplayMatrix: [Int32]? {
    var size = 0
    guard let data = av_stream_get_side_data(stream(videoStreamIndex), AV_PKT_DATA_DISPLAYMATRIX, &size),
      size >= 9 * MemoryLayout<Int32>.size
    else { return nil }
    return data.withMemoryRebound(to: Int32.self, capacity: 9) { Array(UnsafeBufferPointer(start: $0, count: 9)) }
  }

  /// The video's Dolby Vision configuration, when the container declares one
  /// (MP4 `dvcC`/`dvvC`, Matroska's block addition mapping, the MPEG-TS DOVI descriptor).
  var videoDolbyVision: DolbyVisionConfiguration? {
    var size = 0
    guard let data = av_stream_get_side_data(stream(videoStreamIndex), AV_PKT_DATA_DOVI_CONF, &size),
      size >= MemoryLayout<AVDOVIDecoderConfigurationRecord>.size
    else { return nil }
    let record = UnsafeRawPointer(data).loadUnaligned(as: AVDOVIDecoderConfigurationRecord.self)
    return DolbyVisionConfiguration(
      versionMajor: Int(record.dv_version_major), versionMinor: Int(record.dv_version_minor),
      profile: Int(record.dv_profile), level: Int(record.dv_level), rpuPresent: record.rpu_present_flag != 0,
      enhancementLayerPresent: record.el_present_flag != 0, baseLayerPresent: record.bl_present_flag != 0,
      compatibilityID: Int(record.dv_bl_signal_compatibility_id))
  }

  /// What the header says of the video's length, when it says something:
  /// MP4 declares each track's length; Matroska the time the file ends (its
  /// timestamps may start anywhere). A duration libavformat estimated (from
  /// the bit rate or the last timestamps, as for MPEG-TS) is not declared.
  private enum DeclaredLength {
    case track(seconds: Double)
    case fileEnd(seconds: Double)
  }

  private var declaredLength: DeclaredLength? {
    let video = stream(videoStreamIndex).pointee
    if video.duration > 0, video.duration != hlspack_nopts_value() {
      return .track(seconds: Double(video.duration) * video.time_base.seconds)
    }
    if ctx.pointee.duration_estimation_method == AVFMT_DURATION_FROM_STREAM, let duration {
      return .fileEnd(seconds: duration)
    }
    return nil
  }

  /// How long the video lasts, in seconds, for progress. A source whose
  /// timestamps start at 60 s is 30 s of work, not 90.
  var contentDuration: Double? {
    switch declaredLength {
    case .track(let seconds): return seconds
    case .fileEnd(let seconds):
      let start = ctx.pointee.start_time
      guard start > 0, start != hlspack_nopts_value() else { return seconds }
      return max(0, seconds - Double(start) / Double(AV_TIME_BASE))
    case nil: return duration
    }
  }

  /// Video streams that are not cover art.
  var videoStreamCount: Int {
    (0..<Int(ctx.pointee.nb_streams)).filter { i in
      let s = stream(Int32(i)).pointee
      return s.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO && s.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
    }.count
  }

  /// The picture's size as players show it, in square pixels: pixel aspect
  /// ratio (widening or narrowing it) and the display matrix's turn applied.
  var videoShownSize: (width: Double, height: Double)? {
    let video = stream(videoStreamIndex).pointee
    let parameters = video.codecpar.pointee
    guard parameters.width > 0, parameters.height > 0 else { return nil }
    let sar = [video.sample_aspect_ratio, parameters.sample_aspect_ratio].first { $0.num > 0 && $0.den > 0 }
    let width = Double(parameters.width) * (sar?.seconds ?? 1), height = Double(parameters.height)
    return videoOrientation.swapsSides ? (height, width) : (width, height)
  }

  /// Width over height of the picture as players show it.
  var videoPictureAspect: Double? { videoShownSize.map { $0.width / $0.height } }

  /// From the video's transfer characteristics, as the demuxer and the
  /// decoder's probe read them (container colour box or VUI).
  var videoRange: VideoRange {
    VideoRange(transferCharacteristics: Int(stream(videoStreamIndex).pointee.codecpar.pointee.color_trc.rawValue))
  }

  var videoColour: ColourDescription { ColourDescription(source: stream(videoStreamIndex).pointee.codecpar.pointee) }

  /// The source frame rate (r_frame_rate, else avg_frame_rate), as a fraction.
  var videoFrameRate: FrameRate? {
    let s = stream(videoStreamIndex).pointee
    for rate in [s.r_frame_rate, s.avg_frame_rate] where rate.num > 0 && rate.den > 0 {
      let value = rate.seconds
      // Phones write rates such as 5400000/179957 (30.007): encode at the rate they meant.
      if value >= 1 && value <= 240 {
        return FrameRate.nominal(near: value) ?? FrameRate(numerator: Int(rate.num), denominator: Int(rate.den))
      }
    }
    return nil
  }

  /// The source audio stream an alternate rendition takes.
  func audioStream(_ selector: AudioTrackSelector, for rendition: String) throws -> Int32 {
    let streams = (0..<Int32(ctx.pointee.nb_streams)).filter {
      stream($0).pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO
    }
    let languages = streams.map { index -> String in
      av_dict_get(stream(index).pointee.metadata, "language", nil, 0).map { String(cString: $0.pointee.value) } ?? "und"
    }
    switch selector {
    case .index(let n):
      guard n < streams.count else {
        throw PackError.input(
          path: path, reason: "audio rendition \(rendition) wants audio track \(n), but the file has \(streams.count)")
      }
      return streams[n]
    case .language(let tag):
      if let i = languages.firstIndex(where: { LanguageTag.matches($0, tag) }) { return streams[i] }
      // One audio track and no language to tell: it is the one.
      if streams.count == 1, languages == ["und"] { return streams[0] }
      throw PackError.input(
        path: path,
        reason:
          "audio rendition \(rendition) wants language \"\(tag)\", but the audio tracks are [\(languages.joined(separator: ", "))]; set \"track\""
      )
    }
  }

  /// Reads the next packet; false at the end of the file, which must be
  /// where the header says the video ends.
  func read(into packet: Packet) throws -> Bool {
    let rc = av_read_frame(ctx, packet.pointer)
    if rc == FFmpegError.endOfFile {
      try checkVideoIsComplete()
      return false
    }
    if rc < 0 { throw PackError.media(path: path, reason: "reading failed: \(FFmpegError.message(for: rc))") }
    let p = packet.pointer.pointee
    if endsTheFileCutShort(p) {
      // Far short of the declared length, that says more; else the packet cut in two does.
      try checkVideoIsComplete()
      let seconds =
        p.pts == hlspack_nopts_value() ? 0 : Double(p.pts) * stream(p.stream_index).pointee.time_base.seconds
      throw PackError.media(
        path: path,
        reason: String(
          format: "the file ends inside a packet of stream %d (at %.3f s); the file is truncated", p.stream_index,
          seconds))
    }
    if p.pts != hlspack_nopts_value() {
      let end = p.pts + max(p.duration, 0)
      if p.stream_index == videoStreamIndex {
        videoSpan.first = min(videoSpan.first ?? p.pts, p.pts)
        videoSpan.end = max(videoSpan.end ?? end, end)
      }
      let seconds = Double(end) * stream(p.stream_index).pointee.time_base.seconds
      latestEnd = max(latestEnd ?? seconds, seconds)
    }
    return true
  }

  /// A packet libavformat read only in part because the file ended (it
  /// flags it corrupt and hands it on: decoding it then failed with "Invalid
  /// data"), in a container whose header declares the length: there the
  /// file cannot end inside a packet unless it was cut. MPEG-TS declares
  /// nothing, and a recording may stop anywhere.
  private func endsTheFileCutShort(_ packet: AVPacket) -> Bool {
    guard packet.flags & AV_PKT_FLAG_CORRUPT != 0, declaredLength != nil, let io = ctx.pointee.pb else { return false }
    return io.pointee.eof_reached != 0
  }

  /// Where the video packets read so far start and end (stream time base).
  private var videoSpan: (first: Int64?, end: Int64?) = (nil, nil)
  /// The latest end of any packet read so far, in seconds: a Matroska file
  /// ends where its last stream does, often audio running past the video.
  private var latestEnd: Double?

  /// A file cut short (an interrupted copy or download) reads as an early end
  /// of file: libavformat only logs "partial file". So the video read is
  /// compared with what the header declares (nothing to compare when it
  /// declares nothing).
  private func checkVideoIsComplete() throws {
    let video = stream(videoStreamIndex).pointee
    let seconds = { (ticks: Int64) in Double(ticks) * video.time_base.seconds }
    guard let first = videoSpan.first, let end = videoSpan.end else { return }
    let read: Double, declared: Double, what: String
    switch declaredLength {
    case .track(let length): (read, declared, what) = (seconds(end - first), length, "the video ends")
    case .fileEnd(let fileEnd): (read, declared, what) = (latestEnd ?? seconds(end), fileEnd, "the last stream ends")
    case nil: return
    }
    if read < declared - Self.truncationTolerance {
      throw PackError.media(
        path: path,
        reason: String(
          format: "%@ after %.3f s but the file's header declares %.3f s; the file is truncated", what, read, declared))
    }
  }

  /// More than rounding and edit lists account for, less than a segment.
  private static let truncationTolerance = 0.5
}
