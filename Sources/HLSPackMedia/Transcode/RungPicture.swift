import HLSPackCore

/// What one rung's pictures are coded as: their dynamic range, the colour
/// description its VUI declares, and its HDR10 metadata (nil: 8-bit SDR).
struct RungPicture {
  var range: VideoRange
  var colour: ColourDescription
  var hdr: HDRMetadata?
  /// An SDR source's rung made HDR10 (`video_range: "pq"`): the scaled and
  /// labelled picture is placed in PQ before it is encoded.
  var placesSDRInPQ: Bool

  /// `sourceHDR`: an HDR source's metadata, nil for an SDR source.
  init(rung: VideoRung, source: MediaInput, sourceHDR: HDRMetadata?) {
    placesSDRInPQ = sourceHDR == nil && rung.videoRange == .pq
    if let sourceHDR {
      (range, colour, hdr) = (source.videoRange, source.videoColour, sourceHDR)
    } else if placesSDRInPQ {
      (range, colour, hdr) = (.pq, SDRInPQ.colour, SDRInPQ.metadata)
    } else {
      (range, colour, hdr) = (.sdr, source.videoColour, nil)
    }
  }
}
