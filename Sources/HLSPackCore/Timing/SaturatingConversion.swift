extension FixedWidthInteger {
  /// `value` without its fraction, or the nearest bound when it does not fit
  /// (NaN gives 0). Where a source's timestamps meet a profile's numbers the
  /// product can be anything, and `Self(value)` would trap, leaving the
  /// run's staging folder behind and the later inputs never run.
  public init(saturating value: Double) {
    if value.isNaN {
      self = 0
    } else if value >= Double(Self.max) {
      self = .max
    } else if value <= Double(Self.min) {
      self = .min
    } else {
      self = Self(value)
    }
  }
}
