/// Finds and replaces the `URI` attribute of `EXT-X-KEY` and `EXT-X-SESSION-KEY`
/// lines in playlist text written by any tool, leaving every other byte alone.
///
/// It works on UTF-8 bytes rather than `String` because Swift treats "\r\n" as
/// one character: splitting a `String` on "\n" would miss CRLF files, and
/// re-joining lines would normalise what the spec says to keep byte for byte.
public enum KeyURIRewriter {
  /// One attribute of an attribute list (RFC 8216bis §4.2), as written.
  public struct Attribute: Sendable, Equatable {
    public var name: String
    /// The value without its quotes.
    public var value: String
    public var quoted: Bool
    /// Offsets of `value` (inside the quotes) in the bytes that were parsed.
    public var valueRange: Range<Int>
  }

  /// One key tag of a playlist.
  public struct KeyTagLine: Sendable, Equatable {
    public enum Kind: String, Sendable {
      case key = "EXT-X-KEY"
      case sessionKey = "EXT-X-SESSION-KEY"
    }

    public var kind: Kind
    /// 1-based, for messages.
    public var lineNumber: Int
    public var attributes: [Attribute]

    public func value(of name: String) -> String? { attributes.first { $0.name == name }?.value }

    /// The `URI` attribute when it is a quoted string; nil for `METHOD=NONE`
    /// (which has no URI) and for malformed tags.
    public var uri: String? { uriAttribute?.value }

    /// The method, upper-cased; `KEYFORMAT` defaults to `identity` (BIS §4.4.4.4).
    public var method: String { (value(of: "METHOD") ?? "").uppercased() }
    public var keyFormat: String { value(of: "KEYFORMAT") ?? "identity" }

    var uriAttribute: Attribute? { attributes.first { $0.name == "URI" && $0.quoted } }
  }

  /// Every key tag of a playlist, in order.
  public static func keyTags(in playlist: [UInt8]) -> [KeyTagLine] {
    lines(of: playlist).compactMap { line in
      parseTag(playlist[line.content], lineNumber: line.number)
    }
  }

  /// Rewrites the playlist: `newURI` is asked once per key tag with a quoted URI
  /// and returns the replacement, or nil to keep it. Only the bytes between that
  /// URI's quotes change; line endings, attribute order and every other line are
  /// copied as they are.
  public static func rewrite(
    _ playlist: [UInt8], newURI: (KeyTagLine) throws -> String?
  ) rethrows -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(playlist.count + 256)
    var copied = 0
    for line in lines(of: playlist) {
      guard let tag = parseTag(playlist[line.content], lineNumber: line.number),
        let uri = tag.uriAttribute, let replacement = try newURI(tag)
      else { continue }
      out.append(contentsOf: playlist[copied..<uri.valueRange.lowerBound])
      out.append(contentsOf: Array(replacement.utf8))
      copied = uri.valueRange.upperBound
    }
    out.append(contentsOf: playlist[copied...])
    return out
  }

  /// Drops every EXT-X-SESSION-KEY line that repeats an earlier one byte for
  /// byte, with its line ending: a template that gives several URIs of one
  /// key the same new URI makes them identical, and RFC 8216bis §4.4.6.5
  /// forbids two identical session keys. Every other byte stays.
  public static func removingRepeatedSessionKeys(_ playlist: [UInt8]) -> [UInt8] {
    var seen: Set<ArraySlice<UInt8>> = []
    var out: [UInt8] = []
    out.reserveCapacity(playlist.count)
    for line in lines(of: playlist) {
      let content = playlist[line.content]
      let isSessionKey = parseTag(content, lineNumber: line.number)?.kind == .sessionKey
      if !isSessionKey || seen.insert(content).inserted { out.append(contentsOf: playlist[line.whole]) }
    }
    return out
  }

  // MARK: - Lines and attribute lists

  struct Line {
    var number: Int
    /// The line without its terminator ("\n" or "\r\n").
    var content: Range<Int>
    /// The line with its terminator.
    var whole: Range<Int>
  }

  /// Lines end at LF; a CR just before it belongs to the terminator.
  static func lines(of bytes: [UInt8]) -> [Line] {
    var result: [Line] = []
    var start = 0
    var number = 1
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
      result.append(
        Line(number: number, content: contentRange(of: bytes[start..<end]), whole: start..<min(end + 1, bytes.count)))
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

  private static let tagPrefixes = [KeyTagLine.Kind.key, .sessionKey].map { ($0, Array("#\($0.rawValue):".utf8)) }

  /// Tag names are case-sensitive (RFC 8216bis §4.1), so `#ext-x-key:` is not one.
  static func parseTag(_ line: ArraySlice<UInt8>, lineNumber: Int) -> KeyTagLine? {
    // Most lines are segment URIs and other tags; every pass over a playlist asks this of each line.
    guard line.first == UInt8(ascii: "#") else { return nil }
    for (kind, prefix) in tagPrefixes {
      if line.starts(with: prefix) {
        let list = line.dropFirst(prefix.count)
        return KeyTagLine(kind: kind, lineNumber: lineNumber, attributes: parseAttributes(list))
      }
    }
    return nil
  }

  /// Splits `NAME=VALUE,NAME="VALUE",…` at commas outside quoted strings. A
  /// quoted value may hold commas and `NAME=` look-alikes, which a plain
  /// search for `URI="` would wrongly match. Whitespace around names, which
  /// the grammar does not allow but some writers emit, is tolerated.
  static func parseAttributes(_ list: ArraySlice<UInt8>) -> [Attribute] {
    var result: [Attribute] = []
    var i = list.startIndex
    let end = list.endIndex
    let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), comma = UInt8(ascii: ","), quote = UInt8(ascii: "\"")
    while i < end {
      while i < end, list[i] == space || list[i] == tab || list[i] == comma { i += 1 }
      let nameStart = i
      while i < end, list[i] != UInt8(ascii: "="), list[i] != comma { i += 1 }
      var nameEnd = i
      while nameEnd > nameStart, list[nameEnd - 1] == space || list[nameEnd - 1] == tab { nameEnd -= 1 }
      let name = String(decoding: list[nameStart..<nameEnd], as: UTF8.self)
      guard i < end, list[i] == UInt8(ascii: "=") else { continue }
      i += 1
      while i < end, list[i] == space || list[i] == tab { i += 1 }
      if i < end, list[i] == quote {
        let valueStart = i + 1
        guard let close = list[valueStart...].firstIndex(of: quote) else {
          // Unterminated quoted string: not an attribute we could rewrite safely.
          return result
        }
        result.append(
          Attribute(
            name: name, value: String(decoding: list[valueStart..<close], as: UTF8.self), quoted: true,
            valueRange: valueStart..<close))
        i = close + 1
        // Skip anything up to the next separator.
        while i < end, list[i] != comma { i += 1 }
      } else {
        let valueStart = i
        while i < end, list[i] != comma { i += 1 }
        var valueEnd = i
        while valueEnd > valueStart, list[valueEnd - 1] == space || list[valueEnd - 1] == tab { valueEnd -= 1 }
        result.append(
          Attribute(
            name: name, value: String(decoding: list[valueStart..<valueEnd], as: UTF8.self), quoted: false,
            valueRange: valueStart..<valueEnd))
      }
    }
    return result
  }
}
