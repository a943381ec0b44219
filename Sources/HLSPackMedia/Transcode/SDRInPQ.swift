internal import CFFmpeg
import HLSPackCore

/// Places a rung's 8-bit SDR pictures in PQ for HDR10 (`video_range: "pq"`):
/// BT.2020 primaries and matrix, the SMPTE ST 2084 transfer, 10 bits, with
/// SDR's reference white at 203 cd/m² as ITU-R BT.2408 maps it. libavfilter's
/// zscale (zimg) does it in linear light, so colours stay the source's.
final class SDRInPQ {
  /// cd/m² of SDR's peak white (code 235) after the mapping: ITU-R BT.2408's HDR reference white.
  static let referenceWhite = 203

  /// The mastering display is the SDR one the picture was made for (BT.709
  /// primaries, D65 white, its peak at the reference white; SMPTE ST 2086 in
  /// x265's units). The content light level is 0,0, CTA-861.3's "unknown"
  /// (x265 writes it beside the mastering display): a single pass cannot know it before the first picture, and
  /// the bound SDR white gives does not hold for the decoded pictures, whose
  /// ringing beside sharp white edges is far brighter in PQ.
  static let metadata = HDRMetadata(
    masterDisplay: "G(15000,30000)B(7500,3000)R(32000,16500)WP(15635,16450)L(\(referenceWhite * 10000),50)")

  /// What an encoder declares for the converted pictures (ITU-T H.273 code points).
  static let colour = ColourDescription(
    primaries: AVCOL_PRI_BT2020, transfer: AVCOL_TRC_SMPTE2084, matrix: AVCOL_SPC_BT2020_NCL)

  private let graph: FilterGraph
  private let converted: Frame

  /// `source`: the colours of the scaled pictures (the source's matrix and
  /// primaries; BT.709 where the source leaves its primaries unspecified).
  init(width: Int, height: Int, timeBase: AVRational, source: ColourDescription) throws {
    let primaries = source.primaries == AVCOL_PRI_UNSPECIFIED ? AVCOL_PRI_BT709 : source.primaries
    graph = try FilterGraph.videoChain(
      width: Int32(width), height: Int32(height), timeBase: timeBase,
      filters: [
        (
          "zscale",
          [
            "transferin": "\(AVCOL_TRC_BT709.rawValue)", "matrixin": "\(source.matrix.rawValue)",
            "primariesin": "\(primaries.rawValue)", "rangein": "limited",
            "transfer": "\(Self.colour.transfer.rawValue)", "matrix": "\(Self.colour.matrix.rawValue)",
            "primaries": "\(Self.colour.primaries.rawValue)", "range": "limited", "npl": "\(Self.referenceWhite)",
          ]
        ),
        ("format", ["pix_fmts": "yuv420p10le"]),
      ])
    converted = try Frame()
  }

  /// `picture` in PQ, in a frame owned by this object and valid until the next
  /// call; its time stamp and picture type (forced IDRs) are kept.
  func convert(_ picture: UnsafeMutablePointer<AVFrame>) throws -> UnsafeMutablePointer<AVFrame> {
    av_frame_unref(converted.pointer)
    try graph.push(picture)
    guard try graph.pull(into: converted) else { throw MediaError("the PQ conversion kept a picture back") }
    converted.pointer.pointee.pict_type = picture.pointee.pict_type
    converted.pointer.pointee.pts = picture.pointee.pts
    return converted.pointer
  }
}
