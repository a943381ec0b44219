import HLSPackCore

/// What one rung's pictures are coded as: their dynamic range, the colour
/// description its VUI declares, and the HDR metadata x265 repeats (nil for
/// an 8-bit SDR rung; a 10-bit one without HDR10 metadata, HLG, has it empty).
struct RungPicture {
  var range: VideoRange
  var colour: ColourDescription
  var hdr: HDRMetadata?
  /// An SDR source's rung made HDR (`video_range: "pq"` or `"hlg"`): the
  /// scaled and labelled picture is placed in the HDR signal before it is encoded.
  var placesSDRInHDR: Bool

  /// `sourceHDR`: an HDR source's metadata, nil for an SDR source.
  init(rung: VideoRung, source: MediaInput, sourceHDR: HDRMetadata?) {
    if let sourceHDR {
      (range, colour, hdr, placesSDRInHDR) = (source.videoRange, source.videoColour, sourceHDR, false)
    } else if let asked = rung.videoRange, asked != .sdr {
      (range, colour, hdr, placesSDRInHDR) = (asked, SDRInHDR.colour(asked), SDRInHDR.metadata(asked), true)
    } else {
      (range, colour, hdr, placesSDRInHDR) = (.sdr, source.videoColour, nil, false)
    }
  }
}
