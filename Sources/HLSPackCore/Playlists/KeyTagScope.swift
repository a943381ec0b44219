import HLSPackM3U8

/// Which segments each key tag of a playlist applies to (RFC 8216bis §4.4.4.4), so
/// that a rewritten package's keys.json can list the segments of every key
/// without knowing which tool wrote the playlist.
public enum KeyTagScope {
  public struct Segment: Sendable, Equatable {
    /// The segment URI as written in the playlist.
    public var uri: String
    /// The `IV` attribute of the key tag in force, as written.
    public var iv: String?
    /// Its EXT-X-BYTERANGE as `length@offset` (an offset left out resolved),
    /// when it is a sub-range of its resource (RFC 8216bis §4.4.4.2).
    public var byteRange: String? = nil
  }

  /// For each tag of `KeyURIRewriter.keyTags(in:)`, in the same order, the
  /// segments it applies to. A key tag with a method replaces the key of the
  /// same KEYFORMAT; `METHOD=NONE` ends every key in force; an
  /// `EXT-X-SESSION-KEY` applies to no segment. A segment is the first URI
  /// line after an `#EXTINF` (in a multivariant playlist, URI lines are
  /// variants, which have no EXTINF); an AES-128 key in force at an
  /// `EXT-X-MAP` encrypts its initialization section too (RFC 8216bis
  /// §4.4.4.4), which is listed by its URI.
  public static func segments(in playlist: [UInt8]) -> [[Segment]] {
    var result: [[Segment]] = []
    var tags: [KeyURIRewriter.KeyTagLine] = []
    // KEYFORMAT → index into `result` of the tag in force.
    var inForce: [String: Int] = [:]
    var sawEXTINF = false
    let extinf = Array("#EXTINF:".utf8)
    let byteRangeTag = Array("#EXT-X-BYTERANGE:".utf8)
    var pendingRange: String?
    var previousEnd: (uri: String, end: Int)?
    let map = Array("#EXT-X-MAP:".utf8)
    for line in M3U8Line.lines(of: playlist) {
      let content = playlist[line.content]
      if let tag = KeyURIRewriter.parseTag(content, lineNumber: line.number) {
        result.append([])
        tags.append(tag)
        guard tag.kind == .key else { continue }
        if tag.method == "NONE" {
          inForce.removeAll()
        } else {
          inForce[tag.keyFormat] = result.count - 1
        }
      } else if content.starts(with: extinf) {
        sawEXTINF = true
      } else if content.starts(with: byteRangeTag) {
        pendingRange = String(decoding: content.dropFirst(byteRangeTag.count), as: UTF8.self)
      } else if content.starts(with: map),
        let uri = M3U8Attribute.list(content.dropFirst(map.count)).first(where: { $0.name == "URI" && $0.quoted })
      {
        for index in Set(inForce.values).sorted() where tags[index].method == "AES-128" {
          result[index].append(Segment(uri: uri.value, iv: tags[index].value(of: "IV")))
        }
      } else if sawEXTINF, let first = content.first, first != UInt8(ascii: "#") {
        let uri = String(decoding: content, as: UTF8.self).trimmingTrailingWhitespace
        let range = pendingRange.flatMap { resolved($0, uri: uri, previousEnd: &previousEnd) }
        for index in Set(inForce.values).sorted() {
          result[index].append(Segment(uri: uri, iv: tags[index].value(of: "IV"), byteRange: range))
        }
        if range == nil { previousEnd = nil }
        pendingRange = nil
        sawEXTINF = false
      }
    }
    return result
  }

  /// `n[@o]` as `n@o`: without `o` the range follows the previous segment's
  /// in the same resource. Nil when it is not a range a client can fetch.
  private static func resolved(_ written: String, uri: String, previousEnd: inout (uri: String, end: Int)?) -> String? {
    let parts = written.trimmingTrailingWhitespace.split(separator: "@", maxSplits: 1)
    guard let first = parts.first, let length = Int(first), length > 0 else { return nil }
    let offset: Int
    if parts.count == 2 {
      guard let written = Int(parts[1]), written >= 0 else { return nil }
      offset = written
    } else {
      guard let before = previousEnd, before.uri == uri else { return nil }
      offset = before.end
    }
    let (end, overflow) = offset.addingReportingOverflow(length)
    guard !overflow else { return nil }
    previousEnd = (uri, end)
    return "\(length)@\(offset)"
  }
}

extension String {
  fileprivate var trimmingTrailingWhitespace: String {
    var s = Substring(self)
    while let last = s.last, last == " " || last == "\t" { s = s.dropLast() }
    return String(s)
  }
}
