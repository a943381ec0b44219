import HLSPackCore

import HLSPackM3U8

/// A playlist split into tags and URI lines, as written, for checking rather
/// than playing: nothing is rejected, every entry keeps its line number.
public struct PlaylistText: Sendable {
  public struct Tag: Sendable {
    /// Without the leading "#", e.g. "EXT-X-KEY".
    public var name: String
    /// Everything after the first ":" ("" when there is none).
    public var value: String
    public var line: Int
    /// `value` read as an attribute list (RFC 8216bis §4.2); empty for other tags.
    public var attributes: [M3U8Attribute]

    public func attribute(_ name: String) -> M3U8Attribute? { attributes.first { $0.name == name } }
  }

  public enum Entry: Sendable {
    case tag(Tag)
    case uri(String, line: Int)
  }

  /// The first line without its terminator, nil for an empty file.
  public var firstLine: [UInt8]?
  public var entries: [Entry]

  /// Tags whose value is an attribute list; the others (EXTINF, EXT-X-BYTERANGE, …) are not split.
  static let attributeListTags: Set<String> = [
    "EXT-X-KEY", "EXT-X-SESSION-KEY", "EXT-X-MAP", "EXT-X-MEDIA", "EXT-X-STREAM-INF", "EXT-X-I-FRAME-STREAM-INF",
    "EXT-X-SESSION-DATA", "EXT-X-START", "EXT-X-DATERANGE", "EXT-X-DEFINE", "EXT-X-PART-INF",
    "EXT-X-SERVER-CONTROL", "EXT-X-PART", "EXT-X-SKIP", "EXT-X-PRELOAD-HINT", "EXT-X-RENDITION-REPORT",
  ]

  static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  public init(_ bytes: [UInt8]) {
    let lines = M3U8Line.lines(of: bytes)
    firstLine = lines.first.map { Array(bytes[$0.content]) }
    entries = []
    for line in lines {
      var content = bytes[line.content]
      // A BOM fails the header rule; the rest of the line is still read as what it is.
      if line.number == 1, content.starts(with: Self.byteOrderMark) {
        content = content.dropFirst(Self.byteOrderMark.count)
      }
      guard let first = content.first else { continue }
      guard first == UInt8(ascii: "#") else {
        let uri = String(decoding: content, as: UTF8.self).trimmingWhitespace()
        if !uri.isEmpty { entries.append(.uri(uri, line: line.number)) }
        continue
      }
      // Lines starting "#" but not "#EXT" are comments.
      guard let tag = M3U8Tag(content) else { continue }
      let valueBytes = bytes[tag.value]
      let attributes = Self.attributeListTags.contains(tag.name) ? M3U8Attribute.list(valueBytes) : []
      entries.append(
        .tag(
          Tag(
            name: tag.name, value: String(decoding: valueBytes, as: UTF8.self), line: line.number,
            attributes: attributes)))
    }
  }

  public var tags: [Tag] {
    entries.compactMap { if case .tag(let tag) = $0 { tag } else { nil } }
  }

  /// A multivariant playlist lists variants; a media playlist lists segments (RFC 8216bis §4.4).
  public var isMultivariant: Bool {
    tags.contains { ["EXT-X-STREAM-INF", "EXT-X-I-FRAME-STREAM-INF", "EXT-X-MEDIA"].contains($0.name) }
  }
}

extension String {
  func trimmingWhitespace() -> String {
    var text = Substring(self)
    while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
    while let last = text.last, last == " " || last == "\t" { text.removeLast() }
    return String(text)
  }
}
