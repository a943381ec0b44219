internal import CFFmpeg

/// The colour description every encoded rung declares in its VUI (and fMP4
/// `colr` box): the source's, so that all rungs are shown alike. Players
/// that are not told guess the matrix from the picture size (BT.601 up to
/// SD, BT.709 above, as mpv and AVPlayer do), so without it a 360p rung of
/// an HD source would be shown with other colours than its 1080p sibling.
struct ColourDescription: Equatable {
  var primaries: AVColorPrimaries
  var transfer: AVColorTransferCharacteristic
  var matrix: AVColorSpace

  init(primaries: AVColorPrimaries, transfer: AVColorTransferCharacteristic, matrix: AVColorSpace) {
    self.primaries = primaries
    self.transfer = transfer
    self.matrix = matrix
  }

  /// Rungs are scaled from YUV without changing its matrix, so they keep the
  /// source's, or the one players would guess for the source. RGB sources
  /// are converted by libswscale with its default BT.601 matrix.
  init(source parameters: AVCodecParameters) {
    primaries = parameters.color_primaries
    transfer = parameters.color_trc
    let format = av_pix_fmt_desc_get(AVPixelFormat(rawValue: parameters.format))
    if let format, format.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0 {
      matrix = AVCOL_SPC_SMPTE170M
    } else if parameters.color_space != AVCOL_SPC_UNSPECIFIED {
      matrix = parameters.color_space
    } else {
      matrix = parameters.width >= 1280 || parameters.height > 576 ? AVCOL_SPC_BT709 : AVCOL_SPC_SMPTE170M
    }
  }
}
