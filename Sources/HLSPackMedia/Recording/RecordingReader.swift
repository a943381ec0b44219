internal import CFFmpeg
import Foundation
import HLSPackCore

/// What a recording shows and sounds like, frame by frame, as `hlspack
/// fixture check` measures it: each picture's QR label and whether its top
/// eighth flashed, and when 1 kHz beeps start.
public struct RecordingObservations: Sendable {
  public struct Picture: Sendable {
    public var seconds: Double
    public var label: LabelPayload?
    public var flash: Bool
  }
  public var pictures: [Picture] = []
  public var beepOnsets: [Double] = []
}

/// Decodes a recording (any file FFmpeg reads) and reads its labels with
/// libzbar, its flashes from the picture and its beeps from the first audio track.
public enum RecordingReader {
  /// Throws `PackError.input` when the file cannot be read as media.
  public static func read(path: String) throws -> RecordingObservations {
    let input = try MediaInput(path: path)
    do {
      return try observe(input)
    } catch let error as PackError {
      throw error
    } catch {
      throw PackError.input(path: path, reason: "\(error)")
    }
  }

  private static func observe(_ input: MediaInput) throws -> RecordingObservations {
    let videoStream = input.stream(input.videoStreamIndex)
    let video = try Decoder(stream: videoStream, describing: "video", threads: 0)
    let audio = try input.audioStreamIndex.map { try Decoder(stream: input.stream($0), describing: "audio", threads: 1) }
    let scanner = try QRScanner()
    let grey = GreyConverter()
    let beeps = BeepDetector()
    var observations = RecordingObservations()
    let frame = try Frame()
    let packet = try Packet()
    let videoBase = videoStream.pointee.time_base
    let audioBase = input.audioStreamIndex.map { input.stream($0).pointee.time_base }

    func receiveVideo() throws {
      while try video.receive(into: frame) {
        defer { av_frame_unref(frame.pointer) }
        let pts = frame.pointer.pointee.best_effort_timestamp
        let seconds = pts == hlspack_nopts_value() ? Double(observations.pictures.count) : Double(pts) * videoBase.seconds
        let picture = try grey.convert(frame.pointer)
        let label = picture.pixels.withUnsafeBytes { bytes in
          scanner.scan(grey: bytes, width: picture.width, height: picture.height).lazy.compactMap(LabelPayload.init(parsing:)).first
        }
        observations.pictures.append(.init(seconds: seconds, label: label, flash: picture.topEighthIsWhite))
      }
    }
    func receiveAudio() throws {
      guard let audio, let audioBase else { return }
      while try audio.receive(into: frame) {
        defer { av_frame_unref(frame.pointer) }
        try beeps.push(frame.pointer, timeBase: audioBase)
      }
    }
    while try input.read(into: packet) {
      defer { av_packet_unref(packet.pointer) }
      let index = packet.pointer.pointee.stream_index
      if index == input.videoStreamIndex {
        try? video.send(packet)
        try receiveVideo()
      } else if index == input.audioStreamIndex, let audio {
        try? audio.send(packet)
        try receiveAudio()
      }
    }
    try video.send(nil)
    try receiveVideo()
    try audio?.send(nil)
    try receiveAudio()
    observations.beepOnsets = beeps.onsets
    return observations
  }
}

/// Any picture to packed 8-bit grey at its own size (libswscale).
final class GreyConverter {
  struct Picture {
    var pixels: [UInt8]
    var width: Int
    var height: Int
    /// The sync flash: the top eighth's mean is near white.
    var topEighthIsWhite: Bool {
      let rows = max(1, height / 8)
      let sum = pixels[0..<(rows * width)].reduce(0) { $0 + Int($1) }
      return sum / (rows * width) > 200
    }
  }

  private var context: OpaquePointer?

  deinit { sws_freeContext(context) }

  func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws -> Picture {
    let width = frame.pointee.width, height = frame.pointee.height
    context = sws_getCachedContext(
      context, width, height, AVPixelFormat(rawValue: frame.pointee.format), width, height, AV_PIX_FMT_GRAY8,
      SWS_POINT, nil, nil, nil)
    guard let context else { throw FFmpegError(call: "sws_getCachedContext", code: hlspack_averror(EINVAL)) }
    var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height))
    try pixels.withUnsafeMutableBufferPointer { buffer in
      var planes: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
      var strides: [Int32] = [width, 0, 0, 0]
      let source = withUnsafeBytes(of: frame.pointee.data) { Array($0.bindMemory(to: UnsafePointer<UInt8>?.self)) }
      let sourceStrides = withUnsafeBytes(of: frame.pointee.linesize) { Array($0.bindMemory(to: Int32.self)) }
      try check(sws_scale(context, source, sourceStrides, 0, height, &planes, &strides), "sws_scale")
    }
    return Picture(pixels: pixels, width: Int(width), height: Int(height))
  }
}
