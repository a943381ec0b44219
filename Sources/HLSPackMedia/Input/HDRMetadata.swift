internal import CFFmpeg

/// An HDR10 source's static metadata, as x265 takes it to write the same
/// mastering display colour volume and content light level SEI (ITU-T H.265
/// D.2.28, D.2.35): read from the first decoded picture, where FFmpeg puts
/// what the SEI or the container's `mdcv`/`clli` boxes said.
struct HDRMetadata: Equatable, Sendable {
  /// x265's `master-display`: `G(x,y)B(x,y)R(x,y)WP(x,y)L(max,min)`,
  /// chromaticities in 0.00002 and luminances in 0.0001 cd/m².
  var masterDisplay: String?
  /// x265's `max-cll`: `MaxCLL,MaxFALL` in cd/m².
  var maxCLL: String?

  /// x265 parameters that repeat the metadata (none when the source has none).
  var x265Parameters: String {
    [masterDisplay.map { "master-display=\($0)" }, maxCLL.map { "max-cll=\($0)" }].compactMap(\.self)
      .map { ":" + $0 }.joined()
  }

  /// Decodes up to the source's first picture and reads its side data.
  static func probe(path: String) throws -> HDRMetadata {
    let input = try MediaInput(path: path)
    let decoder = try Decoder(stream: input.stream(input.videoStreamIndex), describing: "video", threads: 1)
    let packet = try Packet()
    let frame = try Frame()
    var sent = 0
    // A few dozen packets reach the first picture whatever the decoder's delay.
    while sent < 64, try input.read(into: packet) {
      defer { av_packet_unref(packet.pointer) }
      guard packet.pointer.pointee.stream_index == input.videoStreamIndex else { continue }
      sent += 1
      try? decoder.send(packet)
      if try decoder.receive(into: frame) { return HDRMetadata(frame.pointer) }
    }
    try decoder.send(nil)
    return try decoder.receive(into: frame) ? HDRMetadata(frame.pointer) : HDRMetadata()
  }

  init(masterDisplay: String? = nil, maxCLL: String? = nil) {
    self.masterDisplay = masterDisplay
    self.maxCLL = maxCLL
  }

  init(_ frame: UnsafeMutablePointer<AVFrame>) {
    if let data = av_frame_get_side_data(frame, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA)?.pointee.data {
      let m = UnsafeRawPointer(data).load(as: AVMasteringDisplayMetadata.self)
      if m.has_primaries != 0, m.has_luminance != 0 {
        func scaled(_ q: AVRational, _ unit: Int64) -> Int64 { av_rescale(Int64(q.num), unit, Int64(max(1, q.den))) }
        func point(_ p: (AVRational, AVRational)) -> String { "(\(scaled(p.0, 50000)),\(scaled(p.1, 50000)))" }
        let (red, green, blue) = m.display_primaries
        masterDisplay =
          "G\(point(green))B\(point(blue))R\(point(red))WP\(point(m.white_point))"
          + "L(\(scaled(m.max_luminance, 10000)),\(scaled(m.min_luminance, 10000)))"
      }
    }
    if let data = av_frame_get_side_data(frame, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL)?.pointee.data {
      let light = UnsafeRawPointer(data).load(as: AVContentLightMetadata.self)
      maxCLL = "\(light.MaxCLL),\(light.MaxFALL)"
    }
  }
}
