internal import CFFmpeg
import HLSPackCore

/// What a rendition's muxer does differently per container; `SegmentMuxer`
/// keeps what both share (timing, audio interleaving, cutting, sample
/// encryption, parts). One instance per muxer, used on its thread.
protocol ContainerRules: AnyObject {
  /// libavformat's name for the muxer.
  var formatName: String { get }
  /// Sets up a stream just added to `ctx`, with what a copied video carries beside its packets.
  func configure(_ stream: UnsafeMutablePointer<AVStream>, isVideo: Bool, sideData: CopiedVideoSideData) throws
  /// Sets the muxer's options and writes the header into `output`.
  func writeHeader(_ ctx: UnsafeMutablePointer<AVFormatContext>, output: MemoryOutput) throws
  /// Puts a packet's timestamps in the container's terms, right before it is written.
  func prepare(_ packet: Packet, in ctx: UnsafeMutablePointer<AVFormatContext>)
  /// Writes a video packet with `mux`; the AVIO positions around a keyframe
  /// when the container records its byte range there.
  func muxVideo(_ packet: Packet, in ctx: UnsafeMutablePointer<AVFormatContext>, mux: () throws -> Void) throws
    -> Range<Int64>?
  /// A segment has just been cut; the next one starts.
  func segmentOpened(in ctx: UnsafeMutablePointer<AVFormatContext>) throws
  /// Adjusts a part of segment `segment` before it goes to the sink; with
  /// `measuringFirstSample` (the segment's first part), where the segment's
  /// first I-frame byte range is bounded when the container finds it there.
  func finishPart(
    _ bytes: inout [UInt8], segment: Int, in ctx: UnsafeMutablePointer<AVFormatContext>, measuringFirstSample: Bool
  ) throws -> FirstIFrameBound?
  /// Where an audio-only rendition's frame ends when the container states durations.
  func audioEnd(pts: Int64, duration: Int64) -> Int64?
  /// The initialization segment, once, before the first media segment.
  func takeInitialization(in ctx: UnsafeMutablePointer<AVFormatContext>) throws -> [UInt8]?
}

/// How a container bounds a segment's first I-frame byte range, found in the
/// segment's first part.
enum FirstIFrameBound {
  /// fMP4: the range is the moof plus the first sample, which ends here.
  case endsAt(Int)
  /// MPEG-TS: the range starts no earlier than here, after the program
  /// tables that open the segment (its Media Initialization Section, which
  /// the range must not include: RFC 8216bis §4.4.3.6).
  case startsAt(Int)
}

/// Writes the header with `options`, refusing any option the muxer ignored.
func writeHeader(_ ctx: UnsafeMutablePointer<AVFormatContext>, options: inout OpaquePointer?, format: String) throws {
  try check(avformat_write_header(ctx, &options), "avformat_write_header(\(format))")
  if let unused = av_dict_get(options, "", nil, AV_DICT_IGNORE_SUFFIX) {
    throw MediaError("\(format) muxer ignored option \(String(cString: unused.pointee.key))")
  }
}

/// Where the first picture sits on `stream`'s muxer clock.
func firstPicture(in ctx: UnsafeMutablePointer<AVFormatContext>, stream: Int32) -> Int64 {
  let timeBase = ctx.pointee.streams[Int(stream)].unsafelyUnwrapped.pointee.time_base
  return av_rescale_q(MediaClock.timelineOffset, AVRational(num: 1, den: Int32(MediaClock.ticksPerSecond)), timeBase)
}
