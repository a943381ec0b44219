internal import CFFmpeg
import Foundation

/// Finds where 1 kHz beeps start in a recording's sound: the power at 1 kHz
/// (Goertzel) over 2 ms windows of the mono mix, an onset where it rises past
/// a threshold after at least half a second below it.
final class BeepDetector {
  static let hertz = 1000.0
  private var swr: OpaquePointer?
  private static let rate: Int32 = 48_000
  private static let window = 96
  private var pending: [Float] = []
  private var consumed = 0
  private var startSeconds: Double?
  private var quietSince = -Double.infinity
  private var loud = false
  private(set) var onsets: [Double] = []

  deinit { swr_free(&swr) }

  func push(_ frame: UnsafeMutablePointer<AVFrame>, timeBase: AVRational) throws {
    if startSeconds == nil {
      let pts = frame.pointee.best_effort_timestamp
      startSeconds = pts == hlspack_nopts_value() ? 0 : Double(pts) * timeBase.seconds
    }
    if swr == nil {
      var mono = AVChannelLayout()
      av_channel_layout_default(&mono, 1)
      defer { av_channel_layout_uninit(&mono) }
      try check(
        swr_alloc_set_opts2(
          &swr, &mono, AV_SAMPLE_FMT_FLT, Self.rate, &frame.pointee.ch_layout,
          AVSampleFormat(rawValue: frame.pointee.format), frame.pointee.sample_rate, 0, nil), "swr_alloc_set_opts2")
      try check(swr_init(swr), "swr_init")
    }
    // swr_convert, not swr_convert_frame: the frame API refuses a frame whose
    // layout libswresample normalised (an unspecified stereo order) as "input changed".
    let inCount = Int(frame.pointee.nb_samples)
    let capacity = inCount * Int(Self.rate) / max(1, Int(frame.pointee.sample_rate)) + 256
    var samples = [Float](repeating: 0, count: capacity)
    let made = try samples.withUnsafeMutableBytes { buffer -> Int32 in
      var out: UnsafeMutablePointer<UInt8>? = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
      let input = UnsafeMutableRawPointer(frame.pointee.extended_data)?.assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
      return try check(swr_convert(swr, &out, Int32(capacity), input, Int32(inCount)), "swr_convert")
    }
    pending += samples.prefix(Int(made))
    analyse()
  }

  private func analyse() {
    let coefficient = 2 * cos(2 * Double.pi * Self.hertz / Double(Self.rate))
    var offset = 0
    while pending.count - offset >= Self.window {
      var (s1, s2) = (0.0, 0.0)
      for sample in pending[offset..<(offset + Self.window)] {
        let s0 = Double(sample) + coefficient * s1 - s2
        (s2, s1) = (s1, s0)
      }
      // Amplitude of the 1 kHz component, normalised to a full-scale sine = 1.
      let power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
      let amplitude = 2 * sqrt(max(0, power)) / Double(Self.window)
      let seconds = (startSeconds ?? 0) + Double(consumed + offset) / Double(Self.rate)
      if amplitude > 0.2 {
        if !loud, seconds - quietSince >= 0.5 { onsets.append(seconds) }
        loud = true
      } else if amplitude < 0.1 {
        if loud { quietSince = seconds }
        loud = false
      }
      offset += Self.window
    }
    pending.removeFirst(offset)
    consumed += offset
  }
}
