import HLSPackCore

import Foundation

/// What `hlspack verify` found in one package, and how it is printed.
public struct VerifyReport: Sendable {
  /// Sorted: must-fix first, then by rule id and place.
  public private(set) var findings: [Finding]
  public var playlists: Int
  public var segments: Int
  public var bytes: Int
  /// With `verify --sample N`: N, the segments per media playlist whose bytes were read.
  public var sample: Int?

  public init(findings: [Finding], playlists: Int, segments: Int, bytes: Int) {
    self.findings = findings.sorted(by: Finding.precedes)
    self.playlists = playlists
    self.segments = segments
    self.bytes = bytes
  }

  public var hasMustFix: Bool { findings.contains { $0.rule.severity == .must } }

  /// Each failing rule once, in report order, with its findings.
  var byRule: [(rule: VerifyRule, findings: [Finding])] {
    var groups: [(rule: VerifyRule, findings: [Finding])] = []
    for finding in findings {
      if groups.last?.rule.id == finding.rule.id {
        groups[groups.count - 1].findings.append(finding)
      } else {
        groups.append((finding.rule, [finding]))
      }
    }
    return groups
  }

  static let placesShown = 3

  /// Must-fix rules, then should-fix ones, each once with its count and its first places.
  public var humanText: String {
    var lines: [String] = []
    let groups = byRule
    for severity in [VerifyRule.Severity.must, .should] {
      let these = groups.filter { $0.rule.severity == severity }
      guard !these.isEmpty else { continue }
      lines.append(severity == .must ? "Must fix:" : "Should fix:")
      for (rule, findings) in these {
        lines.append("  \(rule.id) ×\(findings.count): \(rule.summary) [\(rule.source); \(rule.owner.rawValue)]")
        for finding in findings.prefix(Self.placesShown) { lines.append("    \(finding.place): \(finding.detail)") }
        if findings.count > Self.placesShown { lines.append("    … and \(findings.count - Self.placesShown) more") }
      }
    }
    let must = groups.filter { $0.rule.severity == .must }.count
    let should = groups.count - must
    if let sample {
      lines.append(
        "Sampled \(sample) segment\(sample == 1 ? "" : "s") per media playlist: the bytes of the others were not read, "
          + "and no finding says anything about them.")
    }
    lines.append(
      "Checked \(playlists) playlists, \(segments) segments, \(bytes) bytes: "
        + "\(must) must-fix rule\(must == 1 ? "" : "s") and \(should) should-fix rule\(should == 1 ? "" : "s") failed.")
    return lines.joined(separator: "\n") + "\n"
  }

  private struct JSONFinding: Encodable {
    var rule: String
    var severity: String
    var source: String
    var owner: String
    var file: String
    var line: Int?
    var segment: String?
    var detail: String
  }

  private struct JSONReport: Encodable {
    var passed: Bool
    var playlists: Int
    var segments: Int
    var bytes: Int
    var sample: Int?
    var findings: [JSONFinding]
  }

  /// Sorted keys and sorted findings: the same package gives the same bytes.
  public func json() throws -> Data {
    let report = JSONReport(
      passed: !hasMustFix, playlists: playlists, segments: segments, bytes: bytes, sample: sample,
      findings: findings.map {
        JSONFinding(
          rule: $0.rule.id, severity: $0.rule.severity.rawValue, source: $0.rule.source, owner: $0.rule.owner.rawValue,
          file: $0.file, line: $0.line, segment: $0.segment, detail: $0.detail)
      })
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    return try encoder.encode(report) + Data("\n".utf8)
  }
}
