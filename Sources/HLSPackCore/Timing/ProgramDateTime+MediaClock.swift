extension ProgramDateTime {
  /// This instant plus a media duration in 90 kHz ticks, rounded to the nearest millisecond.
  public func adding(ticks: Int64) -> ProgramDateTime {
    let millis = Self.floorDiv(ticks * 1000 + MediaClock.ticksPerSecond / 2, MediaClock.ticksPerSecond)
    return ProgramDateTime(millisecondsSince1970: millisecondsSince1970 + millis)
  }
}
