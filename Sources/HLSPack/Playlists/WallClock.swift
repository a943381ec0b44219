import HLSPackCore

/// Maps media time to EXT-X-PROGRAM-DATE-TIME: the first video frame is at
/// `start`, and every playlist of the asset counts from that one frame, so
/// variants, audio and subtitle renditions and I-frame playlists give the same date-time
/// to the same media time (RFC 8216bis §4.4.4.6, §6.2.2).
struct WallClock {
  let start: ProgramDateTime
  /// The first video segment's start, in the writers' 90 kHz time.
  let originTicks: Int64

  /// The date-time a playlist writes before a segment (or I-frame) starting
  /// at `ticks`: on the first and after every discontinuity, where a client
  /// loses the mapping it had (RFC 8216bis §4.4.4.6); nil elsewhere.
  func time(at ticks: Int64, first: Bool, discontinuity: Bool) -> ProgramDateTime? {
    guard first || discontinuity else { return nil }
    return start.adding(ticks: ticks - originTicks)
  }
}
