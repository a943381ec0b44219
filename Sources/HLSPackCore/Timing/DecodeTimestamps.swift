/// Decode timestamps for copied video, which every muxer needs on every
/// packet. Matroska stores presentation times only, and libavformat can guess
/// a DTS only once it has seen `reorderDelay` packets, so the first packets of
/// a stream with B-frames arrive without one. Like FFmpeg's own guess, the
/// first DTS lies `reorderDelay` frames before the first PTS and each next one
/// a frame later.
public struct DecodeTimestamps {
  public enum Problem: Error, Equatable, CustomStringConvertible {
    /// Neither a PTS nor a DTS: a raw elementary stream.
    case none(packet: Int)
    /// A DTS but no PTS with B-frames: the presentation order is unknown.
    case noPresentationTime(packet: Int)
    /// The DTS does not increase (or passes the PTS) at this packet.
    case outOfOrder(packet: Int, pts: Int64, dts: Int64)

    public var description: String {
      switch self {
      case .none(let packet):
        "video packet \(packet) has no timestamps (a raw stream?); remux it into MP4, MPEG-TS or Matroska first"
      case .noPresentationTime(let packet):
        "video packet \(packet) has no presentation time and the stream has B-frames"
      case .outOfOrder(let packet, let pts, let dts):
        "video packet \(packet) has decode time \(dts) after an earlier one or after its presentation time \(pts)"
      }
    }
  }

  private let reorderDelay: Int64
  private let frameDuration: Int64
  private var lastDTS: Int64?
  private var packets = 0

  /// `frameDuration` (stream time base) stands in for packets without a duration.
  public init(reorderDelay: Int, frameDuration: Int64) {
    self.reorderDelay = Int64(max(reorderDelay, 0))
    self.frameDuration = max(frameDuration, 1)
  }

  /// The packet's PTS and DTS, filled in where the demuxer gave none.
  public mutating func next(pts: Int64?, dts: Int64?, duration: Int64) throws -> (pts: Int64, dts: Int64) {
    defer { packets += 1 }
    let step = duration > 0 ? duration : frameDuration
    let filled: (pts: Int64, dts: Int64)
    switch (pts, dts) {
    case (nil, nil):
      throw Problem.none(packet: packets)
    case (nil, let dts?):
      guard reorderDelay == 0 else { throw Problem.noPresentationTime(packet: packets) }
      filled = (dts, dts)
    case (let pts?, let dts?):
      filled = (pts, dts)
    case (let pts?, nil):
      filled = (pts, lastDTS.map { $0 + step } ?? pts - reorderDelay * step)
    }
    if filled.dts > filled.pts || lastDTS.map({ filled.dts <= $0 }) == true {
      throw Problem.outOfOrder(packet: packets, pts: filled.pts, dts: filled.dts)
    }
    lastDTS = filled.dts
    return filled
  }
}
