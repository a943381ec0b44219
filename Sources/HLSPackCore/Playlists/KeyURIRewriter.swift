import HLSPackM3U8

/// Finds and replaces the `URI` attribute of `EXT-X-KEY` and `EXT-X-SESSION-KEY`
/// lines in playlist text written by any tool, leaving every other byte alone.
///
/// It works on the UTF-8 bytes and line offsets of `M3U8Line`: re-joining
/// lines would normalise what the spec says to keep byte for byte.
public enum KeyURIRewriter {
  public typealias Attribute = M3U8Attribute

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
    M3U8Line.lines(of: playlist).compactMap { line in
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
    for line in M3U8Line.lines(of: playlist) {
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
    for line in M3U8Line.lines(of: playlist) {
      let content = playlist[line.content]
      let isSessionKey = parseTag(content, lineNumber: line.number)?.kind == .sessionKey
      if !isSessionKey || seen.insert(content).inserted { out.append(contentsOf: playlist[line.whole]) }
    }
    return out
  }

  // MARK: - Key tags

  private static let tagPrefixes = [KeyTagLine.Kind.key, .sessionKey].map { ($0, Array("#\($0.rawValue):".utf8)) }

  /// Tag names are case-sensitive (RFC 8216bis §4.1), so `#ext-x-key:` is not one.
  static func parseTag(_ line: ArraySlice<UInt8>, lineNumber: Int) -> KeyTagLine? {
    // Most lines are segment URIs and other tags; every pass over a playlist asks this of each line.
    guard line.first == UInt8(ascii: "#") else { return nil }
    for (kind, prefix) in tagPrefixes {
      if line.starts(with: prefix) {
        let list = line.dropFirst(prefix.count)
        return KeyTagLine(kind: kind, lineNumber: lineNumber, attributes: M3U8Attribute.list(list))
      }
    }
    return nil
  }
}
