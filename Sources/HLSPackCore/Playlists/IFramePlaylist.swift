/// An I-frame playlist (EXT-X-I-FRAMES-ONLY): one entry per keyframe, a byte
/// range into its media segment.
public struct IFramePlaylist: Sendable {
  public struct Entry: Sendable, Equatable {
    public var uri: String
    public var offset: Int
    public var length: Int
    /// Until the next I-frame (the last one: until the end of the presentation).
    public var durationTicks: Int64
    /// The parent segment's key, always with its explicit IV: I-frame playlists
    /// number their entries differently, so an implicit IV would be wrong
    /// (RFC 8216bis §6.3.6; docs/conformance.md, IVs).
    public var key: KeyTag
    /// EXT-X-DISCONTINUITY before this entry: its segment follows one in the
    /// media playlist, and every playlist must change at the same points (Apple HLS Authoring Spec 8.13–8.15).
    public var discontinuity: Bool
    /// EXT-X-PROGRAM-DATE-TIME of this I-frame: the same as the media
    /// playlists give the same media time.
    public var programDateTime: ProgramDateTime?
    /// EXT-X-MAP before this entry: its segment's part has an init section of its own.
    public var map: String?

    public init(
      uri: String, offset: Int, length: Int, durationTicks: Int64, key: KeyTag, discontinuity: Bool = false,
      programDateTime: ProgramDateTime? = nil, map: String? = nil
    ) {
      self.map = map
      self.uri = uri
      self.offset = offset
      self.length = length
      self.durationTicks = durationTicks
      self.key = key
      self.discontinuity = discontinuity
      self.programDateTime = programDateTime
    }
  }

  public var entries: [Entry]
  public var map: String?
  /// EXT-X-MAP's BYTERANGE, when the init section shares a file with the segments.
  public var mapRange: SegmentByteRange?
  /// The key that encrypts the initialization segment (`.none`: clear), as in the media playlist.
  public var mapKey: KeyTag
  /// The presentation's, as in every other media playlist of it (an entry
  /// never outlasts the segment it is in).
  public var targetDuration: Int64
  /// EXT-X-DISCONTINUITY-SEQUENCE, written when set (an asset joined from parts).
  public var discontinuitySequence: Int?

  public init(
    entries: [Entry], map: String?, targetDuration: Int64, mapRange: SegmentByteRange? = nil, mapKey: KeyTag = .none,
    discontinuitySequence: Int? = nil
  ) {
    self.entries = entries
    self.map = map
    self.targetDuration = targetDuration
    self.mapRange = mapRange
    self.mapKey = mapKey
    self.discontinuitySequence = discontinuitySequence
  }

  /// 4 for EXT-X-BYTERANGE and EXT-X-I-FRAMES-ONLY, 5 with EXT-X-MAP (RFC 8216bis §8).
  public var version: Int {
    (entries.map(\.key) + [mapKey]).map(\.requiredVersion).reduce(map == nil ? 4 : 5, max)
  }

  public func render() -> String {
    var lines = MediaPlaylistLines(
      version: version, targetDuration: targetDuration, mediaSequence: 0,
      discontinuitySequence: discontinuitySequence, iFramesOnly: true, map: map, mapRange: mapRange, mapKey: mapKey)
    var lastEnd: (uri: String, end: Int)?
    for entry in entries {
      lines.beginEntry(durationTicks: entry.durationTicks, key: entry.key, discontinuity: entry.discontinuity,
        programDateTime: entry.programDateTime, map: entry.map)
      // The offset may be left out when the range continues the previous one.
      let continues = lastEnd.map { $0.uri == entry.uri && $0.end == entry.offset } ?? false
      lines.append("#EXT-X-BYTERANGE:\(entry.length)" + (continues ? "" : "@\(entry.offset)"))
      lines.append(entry.uri)
      lastEnd = (entry.uri, entry.offset + entry.length)
    }
    return lines.rendered()
  }
}
