extension SegmentProtection {
  /// The protection of every rendition `profile` makes.
  public init(_ profile: Profile) {
    self.init(method: profile.encryption.method, container: profile.segment.container)
  }
}
