/// METHOD=AES-128 for one rendition, in either container: each segment file
/// is one AES-128-CBC run with PKCS#7 padding (RFC 8216bis 4.4.4.4), which
/// the segment file writer applies as the bytes are written (`SegmentCBCRun`).
final class AES128SegmentProtector: SegmentProtector {
  let keying: SegmentKeying

  init(keying: SegmentKeying) {
    self.keying = keying
  }

  var encryptsWholeSegments: Bool { true }
}
