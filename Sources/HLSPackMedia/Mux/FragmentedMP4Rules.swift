internal import CFFmpeg
import HLSPackCore

/// Fragmented MP4 in a rendition's muxer: the mov muxer writes the init
/// segment once and one moof+mdat fragment per segment; each track's times
/// count from its own origin, and the init segment gets the edit lists that
/// skip what a track holds before the first picture.
final class FragmentedMP4Rules: ContainerRules {
  /// The init segment, handed over with the first segment, once every
  /// track's origin is known and its edit list can be written.
  private var initialization: [UInt8]?
  /// Where each stream's written timestamps count from (its own time
  /// base): its first decode time, or the first picture if it starts later.
  /// Each track's tfdt then starts at 0 (or at its delay), and its edit list
  /// skips what it has before the first picture (B-frame delay, AAC priming).
  private var trackOrigins: [Int64?] = []
  /// FFmpeg 5.1's mov muxer writes `dvcC`/`dvvC` only when told that
  /// unofficial boxes may be written (Dolby's, not ISO/IEC 14496-15's).
  private var writesDolbyVision = false

  var formatName: String { "mp4" }

  func configure(_ stream: UnsafeMutablePointer<AVStream>, isVideo: Bool, sideData: CopiedVideoSideData) throws {
    guard isVideo else { return }
    if stream.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_HEVC {
      // Parameter sets in the sample entry (ISO/IEC 14496-15). Dolby Vision
      // profile 8 keeps it: players without Dolby Vision play the base layer.
      stream.pointee.codecpar.pointee.codec_tag = Self.fourCC("hvc1")
    }
    if let displayMatrix = sideData.displayMatrix, displayMatrix.count == 9 {
      // The mov muxer writes it as the track header's matrix.
      try Self.attach(displayMatrix, as: AV_PKT_DATA_DISPLAYMATRIX, to: stream, what: "display matrix")
    }
    if let dolbyVision = sideData.dolbyVision {
      // The mov muxer writes it as the sample entry's dvcC/dvvC box.
      try Self.attach(
        Self.record(dolbyVision), as: AV_PKT_DATA_DOVI_CONF, to: stream, what: "Dolby Vision configuration")
      writesDolbyVision = true
    }
  }

  func writeHeader(_ ctx: UnsafeMutablePointer<AVFormatContext>, output: MemoryOutput) throws {
    var options: OpaquePointer?
    defer { av_dict_free(&options) }
    // The init segment at write_header, then one moof+mdat per flush; no mfra.
    av_dict_set(&options, "movflags", "frag_custom+empty_moov+default_base_moof+skip_trailer+frag_discont", 0)
    // The mov muxer's own edit lists cannot live in an empty moov (its shift of
    // B-frame DTS onto the first PTS would start video 2 frames late);
    // `takeInitialization` adds them once every track's origin is known
    // (`trackOrigins`). Moving decode times up to the first PTS instead (trun
    // version 1, negative offsets) was measured and left out: FFmpeg 5.1 and
    // 8.1 then present the video 2 frames late.
    av_dict_set(&options, "use_editlist", "0", 0)
    if writesDolbyVision { ctx.pointee.strict_std_compliance = FF_COMPLIANCE_UNOFFICIAL }
    try HLSPackMedia.writeHeader(ctx, options: &options, format: formatName)
    initialization = output.take()
    trackOrigins = Array(repeating: nil, count: Int(ctx.pointee.nb_streams))
  }

  func prepare(_ packet: Packet, in ctx: UnsafeMutablePointer<AVFormatContext>) {
    let p = packet.pointer
    let index = Int(p.pointee.stream_index)
    let origin = trackOrigins[index] ?? min(p.pointee.dts, firstPicture(in: ctx, stream: Int32(index)))
    trackOrigins[index] = origin
    p.pointee.pts -= origin
    p.pointee.dts -= origin
  }

  func muxVideo(_ packet: Packet, in ctx: UnsafeMutablePointer<AVFormatContext>, mux: () throws -> Void) throws
    -> Range<Int64>?
  {
    try mux()
    return nil
  }

  func segmentOpened(in ctx: UnsafeMutablePointer<AVFormatContext>) throws {}

  /// The fragment arrives whole; only its first sample can be reached without another moof.
  func finishPart(
    _ bytes: inout [UInt8], segment: Int, in ctx: UnsafeMutablePointer<AVFormatContext>, measuringFirstSample: Bool
  ) throws -> FirstIFrameBound? {
    measuringFirstSample ? FragmentLayout.firstSampleEnd(bytes).map(FirstIFrameBound.endsAt) : nil
  }

  /// The trun states each frame's duration, which the encoder shortens for the
  /// last one to the samples the source had.
  func audioEnd(pts: Int64, duration: Int64) -> Int64? {
    duration > 0 ? pts + duration : nil
  }

  func takeInitialization(in ctx: UnsafeMutablePointer<AVFormatContext>) throws -> [UInt8]? {
    guard let initialization else { return nil }
    self.initialization = nil
    // A track that has not started yet counts from the first picture.
    let origins = trackOrigins.indices.map { trackOrigins[$0] ?? firstPicture(in: ctx, stream: Int32($0)) }
    trackOrigins = origins
    // In each stream's time base, which the mov muxer made its track's timescale.
    let skipped = origins.indices.map { index in
      let timeBase = ctx.pointee.streams[index].unsafelyUnwrapped.pointee.time_base
      return (
        value: (firstPicture(in: ctx, stream: Int32(index)) - origins[index]) * Int64(timeBase.num),
        timescale: Int64(timeBase.den)
      )
    }
    guard !skipped.allSatisfy({ $0.value == 0 }) else { return initialization }
    do {
      return try InitSegmentEditList.inserting(mediaTimes: skipped, into: initialization)
    } catch let error as MediaFormatError {
      throw MediaError("fMP4 init segment: \(error)")
    }
  }

  /// Adds a copy of `value`'s bytes to the stream's side data.
  private static func attach<Value>(
    _ value: [Value], as type: AVPacketSideDataType, to stream: UnsafeMutablePointer<AVStream>, what: String
  ) throws {
    let size = value.count * MemoryLayout<Value>.stride
    // av_malloc'd: the stream owns and frees it once added (not when adding fails).
    guard let data = av_malloc(size) else {
      throw FFmpegError(call: "av_malloc", code: hlspack_averror(ENOMEM))
    }
    value.withUnsafeBytes { data.copyMemory(from: $0.baseAddress.unsafelyUnwrapped, byteCount: size) }
    let result = av_stream_add_side_data(stream, type, data.assumingMemoryBound(to: UInt8.self), size)
    if result < 0 {
      av_free(data)
      try check(result, "av_stream_add_side_data(\(what))")
    }
  }

  private static func record(_ configuration: DolbyVisionConfiguration) -> [AVDOVIDecoderConfigurationRecord] {
    [
      AVDOVIDecoderConfigurationRecord(
        dv_version_major: UInt8(clamping: configuration.versionMajor),
        dv_version_minor: UInt8(clamping: configuration.versionMinor),
        dv_profile: UInt8(clamping: configuration.profile),
        dv_level: UInt8(clamping: configuration.level), rpu_present_flag: configuration.rpuPresent ? 1 : 0,
        el_present_flag: configuration.enhancementLayerPresent ? 1 : 0,
        bl_present_flag: configuration.baseLayerPresent ? 1 : 0,
        dv_bl_signal_compatibility_id: UInt8(clamping: configuration.compatibilityID))
    ]
  }

  private static func fourCC(_ code: String) -> UInt32 {
    code.utf8.reversed().reduce(0) { $0 << 8 | UInt32($1) }
  }
}
