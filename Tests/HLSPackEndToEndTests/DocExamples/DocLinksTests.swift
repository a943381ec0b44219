import Foundation
import Testing

/// Every relative link of README.md and docs/ leads somewhere: the file or
/// folder exists, and a `#fragment` into a Markdown page names one of its
/// headings (as GitHub makes their anchors), so moving a section cannot
/// leave a link behind.
@Suite("Links in the docs")
struct DocLinksTests {
  /// GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens.
  static func anchor(_ heading: String) -> String {
    String(
      heading.lowercased().compactMap { character -> Character? in
        if character == " " { return "-" }
        return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
      })
  }

  static func anchors(of page: URL) throws -> Set<String> {
    let text = try String(contentsOf: page, encoding: .utf8)
    var inFence = false
    var found = Set<String>()
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") { inFence.toggle() }
      guard !inFence, line.hasPrefix("#") else { continue }
      found.insert(anchor(line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)))
    }
    return found
  }

  @Test func everyRelativeLinkLeadsSomewhere() throws {
    let link = try Regex(#"\]\(([^)\s]+)\)"#)
    var checked = 0
    for page in DocPages.pages() {
      let url = DocPages.projectRoot.appendingPathComponent(page)
      let text = try DocPages.text(of: page)
      for match in text.matches(of: link) {
        guard let target = match.output[1].substring.map(String.init),
          !target.contains("://"), !target.hasPrefix("mailto:")
        else { continue }
        checked += 1
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let file = parts[0].isEmpty ? url : url.deletingLastPathComponent().appendingPathComponent(parts[0])
        guard FileManager.default.fileExists(atPath: file.path) else {
          Issue.record("\(page): the link \(target) leads to no file")
          continue
        }
        if parts.count == 2, file.pathExtension == "md" {
          let anchors = try Self.anchors(of: file)
          #expect(anchors.contains(parts[1]), "\(page): the link \(target) names no heading of \(parts[0])")
        }
      }
    }
    #expect(checked > 30, "checked only \(checked) links")
  }

  @Test func anchorsAreGitHubs() {
    #expect(Self.anchor("Key URIs in an app's scheme") == "key-uris-in-an-apps-scheme")
    #expect(Self.anchor("A catalog of many files, resumable") == "a-catalog-of-many-files-resumable")
    #expect(Self.anchor("SAMPLE-AES") == "sample-aes")
  }
}
