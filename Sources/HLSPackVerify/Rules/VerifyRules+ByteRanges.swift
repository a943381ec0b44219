/// Rules over the sub-ranges of one resource (EXT-X-BYTERANGE, EXT-X-MAP's
/// BYTERANGE), as a single-file rendition has them.
extension VerifyRules {
  public static let segmentByteRangeOverlap = VerifyRule(
    id: "segment.byterange-overlap", severity: .must, source: "RFC 8216bis §3, §4.4.4.2, §4.4.4.5",
    origin: .rfc8216bis, owner: .packager,
    summary:
      "two segments of a media playlist (not an I-frame playlist), or a segment and its EXT-X-MAP, name overlapping bytes of one resource: each is its own Media Segment or Media Initialization Section"
  )
  public static let segmentAES128RangeAlignment = VerifyRule(
    id: "segment.aes128-range-alignment", severity: .should, source: "RFC 8216bis §6.3.6", origin: .rfc8216bis,
    owner: .packager,
    summary:
      "an AES-128 segment's EXT-X-BYTERANGE does not start on a 16-byte block of its resource: a client that widens an I-frame range to whole blocks of the resource and decrypts it with the block before (RFC 8216bis §6.3.6) cannot decrypt the resource's I-frames"
  )
}
