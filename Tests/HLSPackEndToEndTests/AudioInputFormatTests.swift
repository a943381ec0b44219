import Foundation
import HLSPackTestSupport
import Testing

/// Sources whose decoded audio is not in one fixed, fully described format.
/// Both were refused with "swr_convert_frame: Input changed" (found by an
/// independent check), where the ffmpeg CLI encodes them.
@Suite struct AudioInputFormatTests {
  /// PCM in Matroska: the decoder knows the channel count, not the layout.
  @Test func pcmWithoutAChannelLayoutIsEncoded() throws {
    let scratch = try ScratchFolder.make()
    let source = scratch.appendingPathComponent("pcm.mkv")
    try Fixtures.ffmpeg([
      "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=2", "-f", "lavfi", "-i",
      "sine=frequency=440:sample_rate=48000:duration=2",
      "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le", source.path,
    ])
    let tones = try Self.encodeAndMeasure(source, in: scratch)
    #expect(abs(tones.seconds - 2) < 0.05, "\(tones.seconds) s of audio")
    #expect(abs(tones.hertz(from: 0.3, to: 1.7) - 440) < 15)
  }

  /// Two recordings joined: 44.1 kHz at 440 Hz, then 48 kHz at 880 Hz. Each
  /// part keeps its pitch, so each was resampled from its own rate.
  @Test func aSampleRateChangeMidwayIsResampled() throws {
    let scratch = try ScratchFolder.make()
    var parts: [Data] = []
    for (index, (rate, hertz)) in [(44100, 440), (48000, 880)].enumerated() {
      let part = scratch.appendingPathComponent("part\(index).ts")
      try Fixtures.ffmpeg([
        "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=1", "-f", "lavfi", "-i",
        "sine=frequency=\(hertz):sample_rate=\(rate):duration=1",
        "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-c:a", "aac", "-output_ts_offset", "\(index)",
        part.path,
      ])
      parts.append(try Data(contentsOf: part))
    }
    let source = scratch.appendingPathComponent("joined.ts")
    try parts.reduce(Data(), +).write(to: source)
    let tones = try Self.encodeAndMeasure(source, in: scratch)
    #expect(abs(tones.seconds - 2) < 0.1, "\(tones.seconds) s of audio")
    #expect(abs(tones.hertz(from: 0.2, to: 0.8) - 440) < 15)
    #expect(abs(tones.hertz(from: 1.2, to: 1.8) - 880) < 15)
  }

  /// The package's audio decoded to 48 kHz mono.
  struct Tones {
    let samples: [Int16]
    var seconds: Double { Double(samples.count) / 48000 }

    /// From zero crossings between two times.
    func hertz(from start: Double, to end: Double) -> Double {
      let window = samples[Int(start * 48000)..<min(samples.count, Int(end * 48000))]
      let crossings = zip(window, window.dropFirst()).count { ($0 < 0) != ($1 < 0) }
      return Double(crossings) / 2 / (end - start)
    }
  }

  static func encodeAndMeasure(_ source: URL, in scratch: URL) throws -> Tones {
    let profile = try Fixtures.profile(
      in: scratch, encryption: #"{"method": "none"}"#, rungs: [Fixtures.defaultRungs[1]])
    let output = scratch.appendingPathComponent("out")
    let run = try Command.run(
      try Fixtures.executable(), ["encode", "--profile", profile.path, "--output", output.path, source.path])
    #expect(run.status == 0, "\(run.stderr)")
    let master = output.appendingPathComponent(source.deletingPathExtension().lastPathComponent).appendingPathComponent(
      "master.m3u8")
    let pcm = scratch.appendingPathComponent("decoded.pcm")
    try Fixtures.ffmpeg(["-i", master.path, "-map", "0:a", "-f", "s16le", "-ac", "1", "-ar", "48000", pcm.path])
    let bytes = try Data(contentsOf: pcm)
    return Tones(
      samples: stride(from: 0, to: bytes.count - 1, by: 2).map {
        Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
      })
  }
}
