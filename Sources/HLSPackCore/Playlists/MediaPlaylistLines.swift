/// The lines of a VOD media playlist as both kinds here write them (`MediaPlaylist`,
/// `IFramePlaylist`): one header, then per entry its discontinuity, a key tag
/// where the key changes, its program date-time where it has one, and its
/// EXTINF; EXT-X-ENDLIST to close. An asset joined from parts adds
/// EXT-X-DISCONTINUITY-SEQUENCE and an EXT-X-MAP per part whose init differs.
struct MediaPlaylistLines {
  private(set) var lines: [String]
  private var key = KeyTag.none

  /// `iFramesOnly`: EXT-X-I-FRAMES-ONLY after the header. A key tag in force
  /// at the EXT-X-MAP declares the init segment encrypted (RFC 8216bis
  /// §4.4.4.4, §4.4.4.5): so the EXT-X-MAP comes before any key tag, unless
  /// `mapKey` encrypts it; then its tag comes first, and stays in force for
  /// the entries that have the same key tag.
  /// `mapRange`: the init section's bytes, when it shares a file with the segments.
  /// `discontinuitySequence`: written when set, before any segment and any
  /// EXT-X-DISCONTINUITY (RFC 8216bis §4.4.3.3).
  init(
    version: Int, targetDuration: Int64, mediaSequence: Int, discontinuitySequence: Int? = nil, iFramesOnly: Bool,
    map: String?, mapRange: SegmentByteRange? = nil, mapKey: KeyTag = .none
  ) {
    lines = [
      "#EXTM3U",
      "#EXT-X-VERSION:\(version)",
      "#EXT-X-TARGETDURATION:\(targetDuration)",
      "#EXT-X-MEDIA-SEQUENCE:\(mediaSequence)",
    ]
    if let discontinuitySequence { lines.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence)") }
    lines.append("#EXT-X-PLAYLIST-TYPE:VOD")
    if iFramesOnly { lines.append("#EXT-X-I-FRAMES-ONLY") }
    guard let map else { return }
    if mapKey != .none {
      lines.append("#EXT-X-KEY:\(mapKey.attributes)")
      key = mapKey
    }
    lines.append("#EXT-X-MAP:URI=\"\(map)\"" + (mapRange.map { ",BYTERANGE=\"\($0.text)\"" } ?? ""))
  }

  /// The tags that open an entry; its EXT-X-BYTERANGE, if any, and URI follow.
  /// `map`: a new initialization section from this entry on (a later part's).
  mutating func beginEntry(
    durationTicks: Int64, key: KeyTag, discontinuity: Bool, programDateTime: ProgramDateTime?, map: String? = nil
  ) {
    if discontinuity { lines.append("#EXT-X-DISCONTINUITY") }
    if let map {
      // Init sections are written clear: an AES-128 key in force would
      // declare this one encrypted (RFC 8216bis §4.4.4.5), so it is lifted
      // first and re-stated after the EXT-X-MAP; a clear part's init comes
      // after its METHOD=NONE, as its segments do (§4.4.4.4: a key applies
      // to the EXT-X-MAPs after it).
      if self.key.method == .aes128 || (key.method == .none && self.key != key) {
        lines.append("#EXT-X-KEY:\(KeyTag.none.attributes)")
        self.key = .none
      }
      lines.append("#EXT-X-MAP:URI=\"\(map)\"")
    }
    if key != self.key {
      lines.append("#EXT-X-KEY:\(key.attributes)")
      self.key = key
    }
    if let programDateTime { lines.append("#EXT-X-PROGRAM-DATE-TIME:\(programDateTime.iso8601)") }
    lines.append("#EXTINF:\(MediaPlaylist.formatDuration(durationTicks)),")
  }

  mutating func append(_ line: String) { lines.append(line) }

  func rendered() -> String {
    (lines + ["#EXT-X-ENDLIST"]).joined(separator: "\n") + "\n"
  }
}
