import HLSPackCore

/// EXT-X-BYTERANGE values read in playlist order (RFC 8216bis §4.4.4.2):
/// `n[@o]`, decimal-integers; without `o` the range begins at the byte after
/// the previous segment's range, which must be a sub-range of the same
/// resource. Whatever a client cannot turn into a range it may ask for is a
/// problem, in words, never a trap.
struct ByteRangeReader {
  /// The previous segment's resource and the offset just past its range; nil
  /// when it was not a valid sub-range.
  private var previous: (uri: String, end: Int)?

  /// The range of the segment at `uri` whose EXT-X-BYTERANGE is `written`
  /// (nil: none, the whole resource), or why there is none.
  mutating func next(_ written: String?, uri: String) -> (range: (length: Int, offset: Int)?, problem: String?) {
    let before = previous
    previous = nil
    guard let written else { return (nil, nil) }
    func problem(_ why: String) -> (range: (length: Int, offset: Int)?, problem: String?) {
      (nil, "EXT-X-BYTERANGE:\(PlaylistNumber.shown(written)) \(why)")
    }
    let parts = written.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.allSatisfy({ PlaylistNumber.decimalInteger($0) != nil }) else {
      return problem("is not n[@o] with decimal-integers (0 to 18446744073709551615)")
    }
    guard let length = PlaylistNumber.offset(parts[0]) else { return problem("has a length beyond any file") }
    guard length > 0 else { return problem("is an empty range") }
    let offset: Int
    if parts.count == 2 {
      guard let written = PlaylistNumber.offset(parts[1]) else { return problem("has an offset beyond any file") }
      offset = written
    } else {
      guard let before, before.uri == uri else {
        return problem("has no offset, and the previous segment is not a sub-range of \(uri)")
      }
      offset = before.end
    }
    let (end, overflow) = offset.addingReportingOverflow(length)
    guard !overflow else { return problem("ends beyond any file") }
    previous = (uri, end)
    return ((length, offset), nil)
  }
}

extension VerifiedMediaPlaylist.Segment {
  /// Why the segment's EXT-X-BYTERANGE names no bytes of its `size`-byte
  /// resource; nil when it does, or when it has none.
  public func rangeProblem(size: Int) -> String? {
    if let byteRangeProblem { return byteRangeProblem }
    guard let range = byteRange else { return nil }
    // Compared without adding: offset + length may lie beyond Int.max.
    if range.offset <= size, range.length <= size - range.offset { return nil }
    return "EXT-X-BYTERANGE:\(range.length)@\(range.offset) runs past the end of the \(size)-byte resource"
  }
}
