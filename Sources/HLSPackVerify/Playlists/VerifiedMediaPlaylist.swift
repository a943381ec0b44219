import HLSPackCore
import HLSPackM3U8

/// A media playlist's segments with the tags that apply to each, read from
/// `PlaylistText` without rejecting anything, so that rules can say what is wrong.
public struct VerifiedMediaPlaylist: Sendable {
  /// One EXT-X-KEY as written.
  public struct Key: Sendable {
    public var line: Int
    public var attributes: [M3U8Attribute]

    public func value(_ name: String) -> String? { attributes.first { $0.name == name }?.value }
    /// Upper-cased; "" when absent.
    public var method: String { (value("METHOD") ?? "").uppercased() }
    /// The URI when it is a quoted string.
    public var uri: String? { attributes.first { $0.name == "URI" && $0.quoted }?.value }
    /// The explicit IV as 16 bytes; nil when absent or malformed.
    public var iv: [UInt8]? { value("IV").flatMap(Self.parseIV) }

    /// `0x`/`0X` and 1–32 hex digits, a 128-bit integer written big-endian
    /// into 16 bytes (RFC 8216bis §4.2, §5.2).
    static func parseIV(_ text: String) -> [UInt8]? {
      guard text.hasPrefix("0x") || text.hasPrefix("0X") else { return nil }
      let digits = text.dropFirst(2)
      guard (1...32).contains(digits.count), digits.allSatisfy(\.isHexDigit) else { return nil }
      return Hex.decode(String(repeating: "0", count: 32 - digits.count) + digits)
    }
  }

  public struct Segment: Sendable {
    public var uri: String
    public var line: Int
    /// The EXTINF duration in seconds; nil when the segment has no valid EXTINF.
    public var duration: Double?
    /// The EXTINF duration as written, when there is an EXTINF.
    public var durationText: String?
    public var sequenceNumber: UInt64
    /// The EXT-X-KEY in force, nil when none was written (clear).
    public var key: Key?
    public var mapURI: String?
    /// EXT-X-MAP's BYTERANGE (an offset left out is 0); nil when it has none
    /// or it is not n[@o] (number.invalid reports that).
    public var mapRange: (length: Int, offset: Int)?
    /// The line of the EXT-X-MAP that applies, and the EXT-X-KEY in force
    /// there (nil: none, so the initialization section is clear; RFC 8216bis §4.4.4.4).
    public var mapLine: Int?
    public var mapKey: Key?
    /// EXT-X-BYTERANGE length and offset, when the segment is a sub-range.
    public var byteRange: (length: Int, offset: Int)?
    /// Why the segment's EXT-X-BYTERANGE names no range a client can ask for
    /// (`byteRange` is then nil): the segment cannot be read as written.
    public var byteRangeProblem: String?
    /// An EXT-X-DISCONTINUITY stands before the segment.
    public var discontinuity = false
    /// The EXT-X-PROGRAM-DATE-TIME before the segment, as written.
    public var programDateTime: (line: Int, value: String)?

    /// The IV the segment is encrypted with: the explicit one, or the media
    /// sequence number as a big-endian 128-bit integer (RFC 8216bis §5.2).
    public var effectiveIV: [UInt8]? {
      guard let key else { return nil }
      if key.value("IV") != nil { return key.iv }
      return SegmentIV.sequence(sequenceNumber)
    }
  }

  /// nil when absent or not a decimal-integer; one above `Int.max` is read as `Int.max`.
  public var targetDuration: Int?
  public var targetDurationLine: Int?
  /// EXT-X-TARGETDURATION's value as written.
  public var targetDurationText: String?
  public var playlistType: String?
  public var hasEndList = false
  public var iFramesOnly = false
  public var keys: [Key] = []
  /// Every EXT-X-MEDIA-SEQUENCE as written, and whether a segment came before it.
  public var mediaSequenceTags: [(line: Int, value: String, afterSegment: Bool)] = []
  /// Every EXT-X-DISCONTINUITY-SEQUENCE as written, and whether a segment or
  /// an EXT-X-DISCONTINUITY came before it.
  public var discontinuitySequenceTags: [(line: Int, value: String, late: Bool)] = []
  /// Lines of the EXT-X-MAP tags.
  public var mapLines: [Int] = []
  public var segments: [Segment] = []

  public init(_ text: PlaylistText) {
    var sequence: UInt64 = 0
    var pendingDuration: String?
    var pendingRange: String?
    var ranges = ByteRangeReader()
    var key: Key?
    var map: (uri: String?, line: Int, key: Key?, range: (length: Int, offset: Int)?)?
    var discontinuity = false
    var discontinuitySeen = false
    var programDateTime: (line: Int, value: String)?
    for entry in text.entries {
      switch entry {
      case .tag(let tag):
        switch tag.name {
        case "EXT-X-TARGETDURATION":
          targetDuration = PlaylistNumber.decimalInteger(tag.value).map { Int(clamping: $0) }
          targetDurationLine = tag.line
          targetDurationText = tag.value
        case "EXT-X-MEDIA-SEQUENCE":
          mediaSequenceTags.append((tag.line, tag.value, !segments.isEmpty))
          if segments.isEmpty { sequence = PlaylistNumber.decimalInteger(tag.value) ?? 0 }
        case "EXT-X-PLAYLIST-TYPE": playlistType = tag.value
        case "EXT-X-ENDLIST": hasEndList = true
        case "EXT-X-DISCONTINUITY":
          discontinuity = true
          discontinuitySeen = true
        case "EXT-X-DISCONTINUITY-SEQUENCE":
          discontinuitySequenceTags.append((tag.line, tag.value, !segments.isEmpty || discontinuitySeen))
        case "EXT-X-PROGRAM-DATE-TIME": programDateTime = (tag.line, tag.value)
        case "EXT-X-I-FRAMES-ONLY": iFramesOnly = true
        case "EXTINF": pendingDuration = String(tag.value.prefix { $0 != "," })
        case "EXT-X-BYTERANGE": pendingRange = tag.value
        case "EXT-X-KEY":
          let parsed = Key(line: tag.line, attributes: tag.attributes)
          keys.append(parsed)
          key = parsed.method == "NONE" ? nil : parsed
        case "EXT-X-MAP":
          mapLines.append(tag.line)
          map = (
            tag.attribute("URI")?.value, tag.line, key, tag.attribute("BYTERANGE").flatMap { Self.mapRange($0.value) }
          )
        default: break
        }
      case .uri(let uri, let line):
        let range = ranges.next(pendingRange, uri: uri)
        segments.append(
          Segment(
            uri: uri, line: line, duration: pendingDuration.flatMap(PlaylistNumber.decimalFloat),
            durationText: pendingDuration, sequenceNumber: sequence, key: key, mapURI: map?.uri, mapRange: map?.range,
            mapLine: map?.line, mapKey: map?.key, byteRange: range.range, byteRangeProblem: range.problem,
            discontinuity: discontinuity, programDateTime: programDateTime))
        discontinuity = false
        programDateTime = nil
        // Past 2^64 − 1 the numbers wrap, as the IVs derived from them (a 128-bit integer's low half) do.
        sequence &+= 1
        pendingDuration = nil
        pendingRange = nil
      }
    }
  }

  /// BYTERANGE="n[@o]" of EXT-X-MAP (RFC 8216bis §4.4.4.5): without `o` the section starts at byte 0.
  static func mapRange(_ text: String) -> (length: Int, offset: Int)? {
    let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
    guard let length = PlaylistNumber.offset(parts[0]), length > 0 else { return nil }
    guard parts.count == 2 else { return (length, 0) }
    return PlaylistNumber.offset(parts[1]).map { (length, $0) }
  }
}
