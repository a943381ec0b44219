/// A VOD media playlist, rendered from segment records alone.
public struct MediaPlaylist: Sendable {
  public struct Entry: Sendable, Equatable {
    public var uri: String
    public var durationTicks: Int64
    /// The key that encrypts this segment (`.none` for clear segments).
    public var key: KeyTag
    /// EXT-X-DISCONTINUITY before this segment (e.g. the PMT changes after a clear lead).
    public var discontinuity: Bool
    /// EXT-X-PROGRAM-DATE-TIME of this segment's first frame.
    public var programDateTime: ProgramDateTime?
    /// EXT-X-BYTERANGE: the segment's bytes in a rendition's single file.
    public var byteRange: SegmentByteRange?
    /// EXT-X-MAP before this segment: the init section of a later part that differs from the one in force.
    public var map: String?

    public init(
      uri: String, durationTicks: Int64, key: KeyTag, discontinuity: Bool = false,
      programDateTime: ProgramDateTime? = nil, byteRange: SegmentByteRange? = nil, map: String? = nil
    ) {
      self.uri = uri
      self.durationTicks = durationTicks
      self.key = key
      self.discontinuity = discontinuity
      self.programDateTime = programDateTime
      self.byteRange = byteRange
      self.map = map
    }
  }

  public var entries: [Entry]
  /// EXT-X-TARGETDURATION; the same for every playlist of a presentation (RFC 8216bis §6.2.4).
  public var targetDuration: Int64
  public var mediaSequence: Int
  /// EXT-X-MAP URI of the fMP4 initialization segment.
  public var map: String?
  /// EXT-X-MAP's BYTERANGE: the init section's bytes in a single file.
  public var mapRange: SegmentByteRange?
  /// The key that encrypts the initialization segment, written before the
  /// EXT-X-MAP; `.none`: it is clear.
  public var mapKey: KeyTag
  /// EXT-X-DISCONTINUITY-SEQUENCE, written when set (an asset joined from parts).
  public var discontinuitySequence: Int?

  public init(
    entries: [Entry], targetDuration: Int64, mediaSequence: Int = 0, map: String? = nil,
    mapRange: SegmentByteRange? = nil, mapKey: KeyTag = .none, discontinuitySequence: Int? = nil
  ) {
    self.entries = entries
    self.targetDuration = targetDuration
    self.mediaSequence = mediaSequence
    self.map = map
    self.mapRange = mapRange
    self.mapKey = mapKey
    self.discontinuitySequence = discontinuitySequence
  }

  /// ceil of the longest segment: valid under both the pre-v6 and v6+ rules
  /// (RFC 8216bis §4.4.3.1; docs/conformance.md, Target duration).
  public static func targetDuration(forLongest ticks: Int64) -> Int64 {
    max(1, MediaClock.ceilSeconds(ticks))
  }

  /// The lowest version the content needs: 3 for decimal EXTINF, which every
  /// playlist here uses, 4 for EXT-X-BYTERANGE, 6 for EXT-X-MAP, and whatever
  /// the key tags ask for (RFC 8216bis §8).
  public var version: Int {
    let ranges = entries.contains { $0.byteRange != nil } ? 4 : 3
    return (entries.map(\.key) + [mapKey]).map(\.requiredVersion).reduce(map == nil ? ranges : 6, max)
  }

  public func render() -> String {
    var lines = MediaPlaylistLines(
      version: version, targetDuration: targetDuration, mediaSequence: mediaSequence,
      discontinuitySequence: discontinuitySequence, iFramesOnly: false, map: map, mapRange: mapRange, mapKey: mapKey)
    for entry in entries {
      lines.beginEntry(durationTicks: entry.durationTicks, key: entry.key, discontinuity: entry.discontinuity,
        programDateTime: entry.programDateTime, map: entry.map)
      if let range = entry.byteRange { lines.append("#EXT-X-BYTERANGE:\(range.text)") }
      lines.append(entry.uri)
    }
    return lines.rendered()
  }

  /// Six decimals from exact 90 kHz ticks, so prefix sums stay within a microsecond.
  public static func formatDuration(_ ticks: Int64) -> String {
    let micros = (ticks * 1_000_000 + MediaClock.ticksPerSecond / 2) / MediaClock.ticksPerSecond
    let whole = micros / 1_000_000
    let fraction = String(micros % 1_000_000)
    return "\(whole)." + String(repeating: "0", count: 6 - fraction.count) + fraction
  }
}
