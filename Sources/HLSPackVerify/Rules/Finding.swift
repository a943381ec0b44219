import HLSPackCore

/// A rule `hlspack verify` checks: what it is called in reports and scripts,
/// how bad a failure is, which public text it comes from and who fixes it.
public struct VerifyRule: Sendable, Hashable, Codable {
  /// `must`: a client may fail or misbehave; `should`: a recommendation.
  public enum Severity: String, Sendable, Hashable, Codable, Comparable {
    case must, should

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs == .must && rhs == .should }
  }

  /// Who can fix it: the tool that made the package, or whoever placed it on
  /// a server (files missing after a copy, file modes).
  public enum Owner: String, Sendable, Hashable, Codable {
    case packager, publisher
  }

  /// The text that makes the rule a requirement, the first its `source` cites:
  /// `verify --rules rfc` leaves out Apple's.
  public enum Origin: String, Sendable, Hashable, Codable, CaseIterable {
    /// RFC 8216bis (draft-pantos-hls-rfc8216bis).
    case rfc8216bis = "RFC 8216bis"
    /// Apple's HLS Authoring Specification, or Apple's MPEG-2 Stream Encryption Format for HLS.
    case apple = "Apple"
    /// An ISO/IEC standard (MPEG-2 TS, Common Encryption).
    case iso = "ISO/IEC"
    /// hlspack's own documented promise (key file modes, what verify could read).
    case hlspack
  }

  /// Stable, e.g. "playlist.targetduration-exceeded"; scripts match on it.
  public var id: String
  public var severity: Severity
  /// The public text the rule comes from, e.g. "RFC 8216bis §4.4.3.1".
  public var source: String
  public var origin: Origin
  public var owner: Owner
  /// One line saying what is wrong, for the human summary.
  public var summary: String

  public init(id: String, severity: Severity, source: String, origin: Origin, owner: Owner, summary: String) {
    self.id = id
    self.severity = severity
    self.source = source
    self.origin = origin
    self.owner = owner
    self.summary = summary
  }
}

/// One place where a rule fails.
public struct Finding: Sendable, Hashable {
  public var rule: VerifyRule
  /// Path of the file concerned, relative to the package folder.
  public var file: String
  /// 1-based line in `file`, when the problem sits on one line.
  public var line: Int?
  /// The segment's URI as the playlist writes it, when one segment is concerned.
  public var segment: String?
  /// What was found there, with the values compared.
  public var detail: String

  /// A URL's credentials in any of the texts are masked (`URLCredentials`).
  public init(_ rule: VerifyRule, file: String, line: Int? = nil, segment: String? = nil, detail: String) {
    self.rule = rule
    self.file = URLCredentials.masked(file)
    self.line = line
    self.segment = segment.map(URLCredentials.masked)
    self.detail = URLCredentials.masked(detail)
  }

  /// `file:line`, `file (segment)` or `file`.
  public var place: String {
    var text = file
    if let line { text += ":\(line)" }
    if let segment { text += " (\(segment))" }
    return text
  }

  /// Must-fix first, then by rule id, file, line and segment, so that the
  /// same package always gives the same order.
  static func precedes(_ a: Finding, _ b: Finding) -> Bool {
    if a.rule.severity != b.rule.severity { return a.rule.severity < b.rule.severity }
    if a.rule.id != b.rule.id { return a.rule.id < b.rule.id }
    if a.file != b.file { return a.file < b.file }
    if a.line != b.line { return (a.line ?? 0) < (b.line ?? 0) }
    if a.segment != b.segment { return (a.segment ?? "") < (b.segment ?? "") }
    return a.detail < b.detail
  }
}
