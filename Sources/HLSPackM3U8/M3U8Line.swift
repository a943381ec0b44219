/// One line of a playlist, located by offsets into its bytes.
///
/// Playlists are read as UTF-8 bytes rather than `String` because Swift
/// treats "\r\n" as one character: splitting a `String` on "\n" would miss
/// CRLF files, and a writer that keeps every other byte needs the offsets.
public struct M3U8Line: Sendable, Equatable {
  /// 1-based, for messages.
  public var number: Int
  /// The line without its terminator ("\n" or "\r\n").
  public var content: Range<Int>
  /// The line with its terminator.
  public var whole: Range<Int>

  /// The lines of a playlist (RFC 8216bis §4.1: lines end at LF; a CR just
  /// before it belongs to the terminator).
  public static func lines(of bytes: [UInt8]) -> [M3U8Line] {
    var result: [M3U8Line] = []
    var start = 0
    var number = 1
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
      result.append(
        M3U8Line(
          number: number, content: contentRange(of: bytes[start..<end]), whole: start..<min(end + 1, bytes.count)))
      start = end + 1
      number += 1
    }
    return result
  }

  private static func contentRange(of bytes: ArraySlice<UInt8>) -> Range<Int> {
    var end = bytes.endIndex
    while end > bytes.startIndex, bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: "\r") {
      end -= 1
    }
    return bytes.startIndex..<end
  }
}
