internal import CFFmpeg
import HLSPackCore

/// Resamples decoded audio to the encoder's format, rate and channel count
/// (5.1 is downmixed by libswresample) and cuts it into encoder-sized frames.
final class AudioConverter {
  private var resampler: OpaquePointer?
  private let fifo: OpaquePointer
  private let converted: Frame
  private let settings: AudioSettings
  private let frameSize: Int32
  private var outputLayout = AVChannelLayout()
  /// The input the resampler was set up for: a stream whose rate, sample
  /// format or layout changes midway (joined recordings) gets a new one.
  private var inputLayout = AVChannelLayout()
  private var inputFormat: Int32 = -1
  private var inputRate: Int32 = 0
  /// Samples still to drop from the start (audio that begins before the video).
  private var samplesToSkip: Int64
  /// Whole frames of silence still to hand out before the source's audio,
  /// when it begins after the video: the output starts with the picture, so
  /// that an audio rendition's playlist starts when the video's does (RFC 8216
  /// 6.2.4) instead of a segment's worth of time off.
  private var silentFrames: Int64
  /// Samples handed out so far, for the next frame's pts.
  private var samplesOut: Int64 = 0

  /// The longest lead of silence. A later start is no offset between two
  /// recordings but a stream of another part or a broken timestamp, and its
  /// silence would be encoded only to be dropped past the last picture
  /// (docs/design/audio-lead-silence.md).
  static let longestSilence = 60.0

  /// `startSeconds`: where the first decoded sample sits on the output timeline;
  /// `videoSeconds`: the video's length when known, past which silence is dropped.
  init(settings: AudioSettings, frameSize: Int32, startSeconds: Double, videoSeconds: Double? = nil) throws {
    self.settings = settings
    self.frameSize = frameSize > 0 ? frameSize : 1024
    let start = Int64(saturating: (startSeconds * Double(settings.sampleRate)).rounded())
    samplesToSkip = max(0, start == .min ? .max : -start)
    let limit = min(videoSeconds ?? .infinity, Self.longestSilence) * Double(settings.sampleRate)
    let lead = min(max(0, start), Int64(limit.rounded(.up)))
    silentFrames = lead / Int64(self.frameSize)
    av_channel_layout_default(&outputLayout, Int32(settings.channels))
    guard let fifo = av_audio_fifo_alloc(AV_SAMPLE_FMT_FLTP, Int32(settings.channels), 4096) else {
      throw FFmpegError(call: "av_audio_fifo_alloc", code: hlspack_averror(ENOMEM))
    }
    self.fifo = fifo
    converted = try Frame()
    // The silence short of a whole frame goes before the source's first samples.
    let rest = Int32(lead % Int64(self.frameSize))
    if rest > 0 {
      let silence = try silentFrame(count: rest)
      try withExtendedLifetime(silence) { try enqueue(silence.pointer) }
    }
  }

  deinit {
    swr_free(&resampler)
    av_audio_fifo_free(fifo)
    av_channel_layout_uninit(&outputLayout)
    av_channel_layout_uninit(&inputLayout)
  }

  /// Adds a decoded frame (nil flushes the resampler's delay).
  func push(_ input: UnsafeMutablePointer<AVFrame>?) throws {
    if let input {
      nameUnspecifiedLayout(of: input)
      if resampler == nil || !isInputFormat(of: input) {
        // The old resampler's delay belongs before the new format's samples.
        try convert(nil)
        try makeResampler(for: input)
      }
    }
    try convert(input)
  }

  private func convert(_ input: UnsafeMutablePointer<AVFrame>?) throws {
    guard let resampler else { return }
    let out = converted.pointer
    av_frame_unref(out)
    try describeOutput(out)
    try check(swr_convert_frame(resampler, out, input), "swr_convert_frame")
    try enqueue(out)
    if samplesToSkip > 0 {
      let drop = min(samplesToSkip, Int64(av_audio_fifo_size(fifo)))
      av_audio_fifo_drain(fifo, Int32(drop))
      samplesToSkip -= drop
    }
  }

  /// The next encoder frame; when `final`, the remainder as a short frame.
  func pop(final: Bool) throws -> Frame? {
    if silentFrames > 0 {
      silentFrames -= 1
      return stamped(try silentFrame(count: frameSize))
    }
    let available = av_audio_fifo_size(fifo)
    guard available >= frameSize || (final && available > 0) else { return nil }
    let count = min(frameSize, available)
    let frame = try emptyFrame(count: count)
    _ = try frame.pointer.pointee.extended_data.withMemoryRebound(
      to: UnsafeMutableRawPointer?.self, capacity: Int(settings.channels)
    ) {
      try check(av_audio_fifo_read(fifo, $0, count), "av_audio_fifo_read")
    }
    return stamped(frame)
  }

  private func stamped(_ frame: Frame) -> Frame {
    frame.pointer.pointee.pts = samplesOut
    samplesOut += Int64(frame.pointer.pointee.nb_samples)
    return frame
  }

  /// Appends a frame in the encoder's format to the FIFO.
  private func enqueue(_ frame: UnsafeMutablePointer<AVFrame>) throws {
    let count = frame.pointee.nb_samples
    guard count > 0 else { return }
    _ = try frame.pointee.extended_data.withMemoryRebound(
      to: UnsafeMutableRawPointer?.self, capacity: Int(settings.channels)
    ) {
      try check(av_audio_fifo_write(fifo, $0, count), "av_audio_fifo_write")
    }
  }

  /// Gives `frame` the encoder's sample format, rate and channel layout.
  private func describeOutput(_ frame: UnsafeMutablePointer<AVFrame>) throws {
    frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
    frame.pointee.sample_rate = Int32(settings.sampleRate)
    try check(av_channel_layout_copy(&frame.pointee.ch_layout, &outputLayout), "av_channel_layout_copy")
  }

  /// A frame of `count` samples in the encoder's format, its buffers allocated.
  private func emptyFrame(count: Int32) throws -> Frame {
    let frame = try Frame()
    frame.pointer.pointee.nb_samples = count
    try describeOutput(frame.pointer)
    try check(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer(audio)")
    return frame
  }

  private func silentFrame(count: Int32) throws -> Frame {
    let frame = try emptyFrame(count: count)
    let f = frame.pointer
    try check(
      av_samples_set_silence(f.pointee.extended_data, 0, count, Int32(settings.channels), AV_SAMPLE_FMT_FLTP),
      "av_samples_set_silence")
    return frame
  }

  /// A decoder that knows only the channel count (PCM in Matroska, for
  /// one) leaves the layout unspecified; libswresample wants the layout it was
  /// set up with on every frame, so the frame gets the default layout for its
  /// count, as the resampler does.
  private func nameUnspecifiedLayout(of input: UnsafeMutablePointer<AVFrame>) {
    let layout = input.pointee.ch_layout
    guard layout.order == AV_CHANNEL_ORDER_UNSPEC || layout.nb_channels == 0 else { return }
    let channels = max(1, layout.nb_channels)
    av_channel_layout_uninit(&input.pointee.ch_layout)
    av_channel_layout_default(&input.pointee.ch_layout, channels)
  }

  private func isInputFormat(of input: UnsafeMutablePointer<AVFrame>) -> Bool {
    input.pointee.format == inputFormat && input.pointee.sample_rate == inputRate
      && av_channel_layout_compare(&inputLayout, &input.pointee.ch_layout) == 0
  }

  private func makeResampler(for input: UnsafeMutablePointer<AVFrame>) throws {
    swr_free(&resampler)
    av_channel_layout_uninit(&inputLayout)
    try check(av_channel_layout_copy(&inputLayout, &input.pointee.ch_layout), "av_channel_layout_copy")
    inputFormat = input.pointee.format
    inputRate = input.pointee.sample_rate
    try check(
      swr_alloc_set_opts2(
        &resampler, &outputLayout, AV_SAMPLE_FMT_FLTP, Int32(settings.sampleRate),
        &inputLayout, AVSampleFormat(rawValue: inputFormat), inputRate, 0, nil),
      "swr_alloc_set_opts2")
    try check(swr_init(resampler), "swr_init")
  }
}
