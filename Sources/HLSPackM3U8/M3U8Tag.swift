/// A tag line, `#EXT…` or `#EXT…:VALUE` (RFC 8216bis §4.1); lines starting
/// "#" but not "#EXT" are comments, and tag names are case-sensitive.
public struct M3U8Tag: Sendable {
  /// Without the leading "#", e.g. "EXT-X-KEY".
  public var name: String
  /// Everything after the first ":" (empty when there is none), as offsets into the line's bytes.
  public var value: Range<Int>

  /// The tag on `line`, nil for a URI line, a comment or a blank line.
  public init?(_ line: ArraySlice<UInt8>) {
    guard line.starts(with: Self.tagStart) else { return nil }
    let body = line.dropFirst()
    let colon = body.firstIndex(of: UInt8(ascii: ":"))
    name = String(decoding: body[..<(colon ?? body.endIndex)], as: UTF8.self)
    value = colon.map { ($0 + 1)..<body.endIndex } ?? body.endIndex..<body.endIndex
  }

  private static let tagStart = Array("#EXT".utf8)
}
