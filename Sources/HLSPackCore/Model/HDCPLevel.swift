/// The HDCP-LEVEL of a video variant (RFC 8216bis §4.4.6.2): the output
/// protection a client must have to show it.
public enum HDCPLevel: String, Sendable, Equatable {
  case none = "NONE"
  case type0 = "TYPE-0"
  case type1 = "TYPE-1"

  /// Apple's authoring rule for protected content (Apple HLS Authoring Spec 13.5–13.7): HD
  /// pictures need TYPE-0, pictures beyond 1080p TYPE-1, SD none. Lines of
  /// the shorter side decide, so portrait video is classed like landscape.
  public init(width: Int, height: Int) {
    let lines = min(width, height)
    self = lines > 1080 ? .type1 : lines > 576 ? .type0 : .none
  }
}

/// What the profile asks for: a level per variant from its picture, one level
/// for every variant, or no attribute.
public enum HDCPPolicy: Sendable, Equatable {
  case byResolution
  case fixed(HDCPLevel)
  case omitted

  /// The attribute of a variant of this picture size; nil for audio-only variants.
  public func level(width: Int, height: Int) -> HDCPLevel? {
    guard width > 0, height > 0 else { return nil }
    switch self {
    case .byResolution: return HDCPLevel(width: width, height: height)
    case .fixed(let level): return level
    case .omitted: return nil
    }
  }
}
