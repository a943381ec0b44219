import HLSPackCore

/// Which rules `verify --rules` keeps.
public enum VerifyRuleSet: String, Sendable, CaseIterable {
  /// Every rule, Apple's HLS Authoring Specification's too (the default).
  case apple
  /// Leaves out the rules whose origin is Apple's (a rule cites the text
  /// that makes it a requirement first, and RFC 8216bis after it when the RFC
  /// only defines the attribute). Rules from RFC 8216bis or ISO/IEC stay, and
  /// so do hlspack's own.
  case rfc

  public func includes(_ rule: VerifyRule) -> Bool {
    switch self {
    case .apple: true
    case .rfc: rule.origin != .apple
    }
  }
}

/// `verify --sample N`: which segments of a media playlist have their bytes read.
public enum SegmentSample {
  /// `count` indices spread evenly over `0..<total`, the first and the last
  /// among them (the first alone for a count of 1); all of them when `count`
  /// is nil or at least `total`.
  public static func indices(total: Int, count: Int?) -> Set<Int> {
    guard let count, count < total else { return Set(0..<total) }
    guard count > 1 else { return count == 1 ? [0] : [] }
    return Set((0..<count).map { ($0 * (total - 1) + (count - 1) / 2) / (count - 1) })
  }
}
