internal import CFFmpeg
import HLSPackCore

/// MPEG-TS in a rendition's muxer: fixed PIDs, the clock's delay, PAT and PMT
/// at every segment and before every keyframe (whose byte ranges are recorded
/// as they are written; a segment's first one starts after the tables that
/// open the segment), and the SAMPLE-AES PMT rewrite. The continuity
/// counters and timestamps run on across segments (RFC 8216bis §3).
final class TransportStreamRules: ContainerRules {
  /// How far the TS clock (PCR) runs behind the decode times: 0.7 s, as in the ffmpeg CLI.
  static let muxDelayMicroseconds = 700_000
  static let videoPID: Int32 = 0x100
  static let audioPID: Int32 = 0x101

  /// SAMPLE-AES: rewrites the PMT of encrypted segments.
  private let sampleEncryptor: SampleEncryptor?

  init(sampleEncryptor: SampleEncryptor?) {
    self.sampleEncryptor = sampleEncryptor
  }

  var formatName: String { "mpegts" }

  func configure(_ stream: UnsafeMutablePointer<AVStream>, isVideo: Bool, sideData: CopiedVideoSideData) throws {
    // Fixed PIDs (the TS muxer takes a stream's id as its PID), so the PMT can
    // be rewritten by PID. MPEG-TS has no place for a display matrix.
    stream.pointee.id = isVideo ? Self.videoPID : Self.audioPID
  }

  func writeHeader(_ ctx: UnsafeMutablePointer<AVFormatContext>, output: MemoryOutput) throws {
    var options: OpaquePointer?
    defer { av_dict_free(&options) }
    // The clock (PCR) runs this far behind the decode times, as the ffmpeg
    // CLI's -muxdelay has it, so every access unit arrives before it is due
    // (ISO/IEC 13818-1 T-STD). libavformat's default, 0, put each PCR at its
    // own PES's DTS, so every frame arrived late. The timestamps stay as
    // they are (copyts): the PCR starts at the first DTS less the delay,
    // which MediaClock.timelineOffset keeps positive.
    ctx.pointee.max_delay = Int32(Self.muxDelayMicroseconds)
    av_dict_set(&options, "mpegts_copyts", "1", 0)
    // Video PES packets state their length whenever it fits the 16-bit
    // field (the muxer writes 0, unbounded, only above 65535 bytes), as
    // ISO/IEC 13818-1 §2.4.3.7 allows and Shaka Packager writes them. With
    // libavformat's default (0 for every video PES) a demuxer can only
    // close a PES when the next one starts: VLC 3.0 never showed the last
    // picture of a stream, and FFmpeg's SAMPLE-AES decryption lost one
    // more access unit at the end of the file.
    av_dict_set(&options, "omit_video_pes_length", "0", 0)
    try HLSPackMedia.writeHeader(ctx, options: &options, format: formatName)
  }

  func prepare(_ packet: Packet, in ctx: UnsafeMutablePointer<AVFormatContext>) {}

  func muxVideo(_ packet: Packet, in ctx: UnsafeMutablePointer<AVFormatContext>, mux: () throws -> Void) throws
    -> Range<Int64>?
  {
    guard packet.isKeyframe else {
      try mux()
      return nil
    }
    // PAT/PMT right before every IDR: each I-frame byte range then decodes on its own.
    try setOption(ctx.pointee.priv_data, "mpegts_flags", "+resend_headers")
    let begin = avio_tell(ctx.pointee.pb)
    try mux()
    return begin..<avio_tell(ctx.pointee.pb)
  }

  func segmentOpened(in ctx: UnsafeMutablePointer<AVFormatContext>) throws {
    // Every segment opens with the tables, audio-only ones too (RFC 8216bis §3.1.1).
    try setOption(ctx.pointee.priv_data, "mpegts_flags", "+resend_headers")
  }

  func finishPart(
    _ bytes: inout [UInt8], segment: Int, in ctx: UnsafeMutablePointer<AVFormatContext>, measuringFirstSample: Bool
  ) throws -> FirstIFrameBound? {
    TransportStreamTableOrder.putPATFirst(&bytes)
    if let sampleEncryptor {
      let audio = (0..<Int(ctx.pointee.nb_streams)).lazy.map { ctx.pointee.streams[$0].unsafelyUnwrapped.pointee }
        .first { $0.id == Self.audioPID }
      let config =
        audio.map { copiedBytes($0.codecpar.pointee.extradata, count: $0.codecpar.pointee.extradata_size) } ?? []
      try sampleEncryptor.signalEncryption(
        &bytes, segment: segment, audioPID: audio.map { _ in UInt16(Self.audioPID) }, audioConfig: config)
    }
    // The rewrites above keep every packet where it was.
    return measuringFirstSample ? .startsAt(TransportStreamLeadingTables.length(bytes)) : nil
  }

  /// MPEG-TS states no durations: the last frame lasts a whole frame.
  func audioEnd(pts: Int64, duration: Int64) -> Int64? { nil }

  func takeInitialization(in ctx: UnsafeMutablePointer<AVFormatContext>) throws -> [UInt8]? { nil }
}
