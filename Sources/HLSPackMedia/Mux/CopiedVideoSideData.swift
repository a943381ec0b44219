import HLSPackCore

/// What a copied video stream carries beside its packets that fMP4 keeps:
/// the display matrix (the track header's matrix) and a Dolby Vision
/// configuration (the sample entry's `dvcC`/`dvvC` box). MPEG-TS has a place for neither.
struct CopiedVideoSideData {
  /// 3×3, 16.16 fixed point, row by row.
  var displayMatrix: [Int32]?
  var dolbyVision: DolbyVisionConfiguration?
}
