internal import CFFmpeg
import Foundation
import HLSPackCore

/// What the synthesised source of a fixture shows and sounds like.
public struct LabelledSourceSpec: Sendable, Equatable {
  /// One audio track: its language tag and the tone that tells it apart by ear.
  public struct AudioTrack: Sendable, Equatable {
    public var language: String
    public var toneHertz: Int
    public init(language: String, toneHertz: Int) {
      self.language = language
      self.toneHertz = toneHertz
    }
  }

  public var width: Int
  public var height: Int
  public var rate: FrameRate
  public var frameCount: Int
  /// Frames whose top eighth flashes white, with a 1 kHz beep from the frame's start.
  public var syncFrames: [Int]
  public var audioTracks: [AudioTrack]

  public init(width: Int, height: Int, rate: FrameRate, frameCount: Int, syncFrames: [Int], audioTracks: [AudioTrack]) {
    self.width = width
    self.height = height
    self.rate = rate
    self.frameCount = frameCount
    self.syncFrames = syncFrames
    self.audioTracks = audioTracks
  }

  /// Seconds of one beep.
  static let beepSeconds = 0.1
  static let sampleRate = 48_000

  var seconds: Double { Double(frameCount) / rate.value }

  /// libavfilter's description of the picture: a moving test pattern, the
  /// first frame green and the last red, the sync frames' top eighth white.
  var videoGraph: String {
    let r = "\(rate.numerator)/\(rate.denominator)"
    var chain = "testsrc2=size=\(width)x\(height):rate=\(r),format=yuv420p"
    chain += ",drawbox=c=green:t=fill:enable='eq(n,0)',drawbox=c=red:t=fill:enable='eq(n,\(frameCount - 1))'"
    if !syncFrames.isEmpty {
      let frames = syncFrames.map { "eq(n,\($0))" }.joined(separator: "+")
      chain += ",drawbox=x=0:y=0:w=iw:h=ih/8:c=white:t=fill:enable='\(frames)'"
    }
    return chain
  }

  /// One audio track: its quiet identifying tone, and the 1 kHz beeps, in stereo 16-bit.
  func audioGraph(_ track: AudioTrack) -> String {
    let beeps = syncFrames.map { frame -> String in
      let start = Double(frame) * Double(rate.denominator) / Double(rate.numerator)
      return "between(t,\(start),\(start + Self.beepSeconds))"
    }
    let beep = beeps.isEmpty ? "" : "+0.7*sin(2*PI*1000*t)*(\(beeps.joined(separator: "+")))"
    let expression = "0.05*sin(2*PI*\(track.toneHertz)*t)\(beep)"
    return "aevalsrc='\(expression)|\(expression)':s=\(Self.sampleRate):d=\(seconds)"
      + ",aformat=sample_fmts=s16:channel_layouts=stereo"
  }
}

/// Writes the labelled source: H.264 (x264 at a high rate, it is only an
/// intermediate) and PCM audio tracks in Matroska, made by one libavfilter
/// graph of sources.
public enum LabelledSource {
  public static func write(_ spec: LabelledSourceSpec, to path: String) throws {
    do {
      try make(spec, path: path)
    } catch let error as PackError {
      throw error
    } catch {
      throw PackError.media(path: path, reason: "the labelled source: \(error)")
    }
  }

  private static func make(_ spec: LabelledSourceSpec, path: String) throws {
    let graph = try FilterGraph.sources(([spec.videoGraph] + spec.audioTracks.map(spec.audioGraph)).joined(separator: ";"))
    let writer = try SourceFileWriter(path: path)
    let rung = VideoRung(
      name: "source", width: spec.width, height: spec.height, bitrate: spec.width * spec.height * 8,
      preset: "ultrafast")
    let video = try Encoder.video(
      rung: rung, rate: spec.rate, gopFrames: max(1, Int(spec.rate.value.rounded())), colour: .bt709, bitExact: true,
      threads: 1, globalHeader: true)
    let videoIndex = try writer.addStream(from: video)
    let audio = try spec.audioTracks.map { track in
      let encoder = try Encoder.pcm(sampleRate: LabelledSourceSpec.sampleRate, channels: 2)
      return (encoder, try writer.addStream(from: encoder, language: track.language))
    }
    try writer.start()

    let frame = try Frame()
    let packet = try Packet()
    func drain(_ encoder: Encoder, stream: Int32) throws {
      while try encoder.receive(into: packet) {
        defer { av_packet_unref(packet.pointer) }
        try writer.write(packet, stream: stream, timeBase: encoder.timeBase)
      }
    }
    var audioDone = Array(repeating: false, count: audio.count)
    var audioSeconds = Array(repeating: 0.0, count: audio.count)
    for index in 0..<spec.frameCount {
      guard try graph.pull(into: frame, sink: 0) else { throw MediaError("testsrc2 ended at frame \(index)") }
      frame.pointer.pointee.pts = Int64(index)
      frame.pointer.pointee.pict_type = AV_PICTURE_TYPE_NONE
      try video.send(frame.pointer)
      av_frame_unref(frame.pointer)
      try drain(video, stream: videoIndex)
      // Audio up to a little past this picture, so the muxer interleaves as it goes.
      let until = Double(index + 1) / spec.rate.value + 0.1
      for (track, (encoder, stream)) in audio.enumerated() where !audioDone[track] {
        while audioSeconds[track] < until {
          guard try graph.pull(into: frame, sink: track + 1) else {
            audioDone[track] = true
            break
          }
          audioSeconds[track] = Double(frame.pointer.pointee.pts + Int64(frame.pointer.pointee.nb_samples))
            * graph.timeBase(sink: track + 1).seconds
          frame.pointer.pointee.pts = av_rescale_q(
            frame.pointer.pointee.pts, graph.timeBase(sink: track + 1), encoder.timeBase)
          try encoder.send(frame.pointer)
          av_frame_unref(frame.pointer)
          try drain(encoder, stream: stream)
        }
      }
    }
    try video.send(nil)
    try drain(video, stream: videoIndex)
    for (encoder, stream) in audio {
      try encoder.send(nil)
      try drain(encoder, stream: stream)
    }
    try writer.finish()
  }
}

extension ColourDescription {
  /// What the synthesised HD source is: BT.709 throughout.
  static var bt709: ColourDescription {
    ColourDescription(primaries: AVCOL_PRI_BT709, transfer: AVCOL_TRC_BT709, matrix: AVCOL_SPC_BT709)
  }
}
