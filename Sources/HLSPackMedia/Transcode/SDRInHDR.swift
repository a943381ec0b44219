internal import CFFmpeg
import HLSPackCore

/// Places a rung's 8-bit SDR pictures in an HDR signal (`video_range: "pq"`
/// or `"hlg"`): BT.2020 primaries and matrix, the SMPTE ST 2084 (PQ) or ARIB
/// STD-B67 (HLG) transfer, 10 bits, with SDR's reference white where ITU-R
/// BT.2408 puts HDR's: 203 cd/m² in PQ, 75 % of the HLG signal (zimg's HLG
/// with a 203 cd/m² nominal peak lands SDR white there). libavfilter's zscale
/// does it in linear light, so colours stay the source's.
final class SDRInHDR {
  /// cd/m² of SDR's peak white (code 235) after the mapping: ITU-R BT.2408's HDR reference white.
  static let referenceWhite = 203

  /// PQ's metadata: the mastering display is the SDR one the picture was made
  /// for (BT.709 primaries, D65 white, its peak at the reference white; SMPTE
  /// ST 2086 in x265's units). The content light level is 0,0, CTA-861.3's
  /// "unknown" (x265 writes it beside the mastering display): a single pass
  /// cannot know it before the first picture, and the bound SDR white gives
  /// does not hold for the decoded pictures, whose ringing beside sharp white
  /// edges is far brighter in PQ. HLG, relative to the display, has none.
  static func metadata(_ range: VideoRange) -> HDRMetadata {
    guard range == .pq else { return HDRMetadata() }
    return HDRMetadata(
      masterDisplay: "G(15000,30000)B(7500,3000)R(32000,16500)WP(15635,16450)L(\(referenceWhite * 10000),50)")
  }

  /// What an encoder declares for the converted pictures (ITU-T H.273 code points).
  static func colour(_ range: VideoRange) -> ColourDescription {
    ColourDescription(
      primaries: AVCOL_PRI_BT2020, transfer: range == .hlg ? AVCOL_TRC_ARIB_STD_B67 : AVCOL_TRC_SMPTE2084,
      matrix: AVCOL_SPC_BT2020_NCL)
  }

  private let graph: FilterGraph
  private let converted: Frame
  /// What a failed conversion names: the range asked for and the source's colours.
  private let failure: String

  /// `range`: PQ or HLG. `source`: the colours of the scaled pictures (the
  /// source's matrix and primaries; BT.709 where the source leaves its primaries unspecified).
  init(_ range: VideoRange, width: Int, height: Int, timeBase: AVRational, source: ColourDescription) throws {
    let primaries = source.primaries == AVCOL_PRI_UNSPECIFIED ? AVCOL_PRI_BT709 : source.primaries
    let target = Self.colour(range)
    graph = try FilterGraph.videoChain(
      width: Int32(width), height: Int32(height), timeBase: timeBase,
      filters: [
        (
          "zscale",
          [
            "transferin": "\(AVCOL_TRC_BT709.rawValue)", "matrixin": "\(source.matrix.rawValue)",
            "primariesin": "\(primaries.rawValue)", "rangein": "limited",
            "transfer": "\(target.transfer.rawValue)", "matrix": "\(target.matrix.rawValue)",
            "primaries": "\(target.primaries.rawValue)", "range": "limited", "npl": "\(Self.referenceWhite)",
          ]
        ),
        ("format", ["pix_fmts": "yuv420p10le"]),
      ])
    converted = try Frame()
    func name(_ text: UnsafePointer<CChar>?) -> String { text.map { String(cString: $0) } ?? "unknown" }
    failure =
      "zscale cannot place a picture of matrix \(name(av_color_space_name(source.matrix))) and primaries \(name(av_color_primaries_name(primaries))) in \(range.rawValue) (video_range \"\(range.rawValue.lowercased())\"): convert the source to BT.709 first, or leave video_range out"
  }

  /// `picture` in the HDR signal, in a frame owned by this object and valid
  /// until the next call; its time stamp and picture type (forced IDRs) are kept.
  func convert(_ picture: UnsafeMutablePointer<AVFrame>) throws -> UnsafeMutablePointer<AVFrame> {
    av_frame_unref(converted.pointer)
    let pulled: Bool
    do {
      try graph.push(picture)
      pulled = try graph.pull(into: converted)
    } catch {
      throw MediaError("\(failure) (\(error))")
    }
    guard pulled else { throw MediaError("the HDR conversion kept a picture back") }
    converted.pointer.pointee.pict_type = picture.pointee.pict_type
    converted.pointer.pointee.pts = picture.pointee.pts
    return converted.pointer
  }
}
