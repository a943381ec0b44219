/// A sub-range of a resource, as EXT-X-BYTERANGE and EXT-X-MAP's BYTERANGE
/// write it: `length@offset` (RFC 8216bis §4.4.4.2, §4.4.4.5).
public struct SegmentByteRange: Sendable, Equatable {
  public var length: Int
  public var offset: Int

  public init(length: Int, offset: Int) {
    self.length = length
    self.offset = offset
  }

  /// `n@o`, always with its offset: a range then means the same bytes
  /// wherever the line stands.
  public var text: String { "\(length)@\(offset)" }
}
