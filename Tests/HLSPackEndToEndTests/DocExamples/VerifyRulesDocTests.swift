import Foundation
import HLSPackVerify
import Testing

/// docs/verify.md lists every rule verify can report, with its severity,
/// origin and owner, as generated from `VerifyRules.all`; with
/// HLSPACK_UPDATE_DOCS=1 the test writes the table instead of comparing it.
@Suite("Verify rules in the docs")
struct VerifyRulesDocTests {
  static let start = "<!-- verify-rules: generated from VerifyRules.all -->\n"
  static let end = "<!-- /verify-rules -->"

  @Test func theDocsTableIsTheRuleTable() throws {
    let page = DocPages.projectRoot.appendingPathComponent("docs/verify.md")
    let text = try String(contentsOf: page, encoding: .utf8)
    guard let from = text.range(of: Self.start), let to = text.range(of: Self.end, range: from.upperBound..<text.endIndex)
    else {
      Issue.record("docs/verify.md has no \(Self.start) … \(Self.end) markers")
      return
    }
    let table = VerifyRules.markdownTable()
    if ProcessInfo.processInfo.environment["HLSPACK_UPDATE_DOCS"] == "1" {
      try (text[..<from.upperBound] + table + text[to.lowerBound...]).write(to: page, atomically: true, encoding: .utf8)
      return
    }
    #expect(String(text[from.upperBound..<to.lowerBound]) == table, "run this test with HLSPACK_UPDATE_DOCS=1")
  }

  /// Every rule declared in Sources/ is in the table once.
  @Test func theTableHoldsEveryDeclaredRule() throws {
    let folder = DocPages.projectRoot.appendingPathComponent("Sources/HLSPackVerify")
    let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
    var declared = 0
    for file in files where file.hasSuffix(".swift") {
      let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      declared += source.matches(of: try Regex(#"static let \w+ = VerifyRule\("#)).count
    }
    #expect(declared > 50)
    #expect(VerifyRules.all.count == declared)
    #expect(Set(VerifyRules.all.map(\.id)).count == VerifyRules.all.count)
  }

  /// `--rules rfc` leaves out exactly the rules of Apple's origin.
  @Test func rfcLeavesOutAppleRules() {
    let left = VerifyRules.all.filter { !VerifyRuleSet.rfc.includes($0) }
    #expect(!left.isEmpty)
    #expect(left.allSatisfy { $0.origin == .apple && $0.source.hasPrefix("Apple") })
    #expect(VerifyRules.all.filter { $0.source.hasPrefix("Apple") }.count == left.count)
  }
}
