import Foundation
import Testing

/// One fenced shell block (`sh`, `bash`, `shell`, `console`) of README.md or
/// docs/, with what the `<!-- doc-test: … -->` comment right before it says
/// about running it. The annotation language is described in
/// docs/development.md ("Examples are tests").
struct DocBlock: Sendable, CustomTestStringConvertible {
  /// The page, relative to the project root ("docs/serve.md").
  var page: String
  /// The line of the opening fence, from 1.
  var line: Int
  /// The commands as a reader pastes them (a `console` block's `$ ` lines, without the prompt).
  var script: String
  var annotations: DocAnnotations

  var id: String { "\(page):\(line)" }
  var testDescription: String { id }
}

/// What a block promises, and how to run it.
struct DocAnnotations: Sendable, Equatable {
  /// Not runnable here, and why (Docker, macOS, cloud, the suite itself).
  var skip: String?
  /// The exit status of the whole block.
  var exit: Int32 = 0
  /// Files or folders the block leaves, relative to the folder it ran in.
  var expect: [String] = []
  /// Text its standard output, or its standard error, contains.
  var stdout: [String] = []
  var stderr: [String] = []
  /// Port numbers in the text that the runner replaces with free ones.
  var ports: [Int] = []
  /// A fixture made by another block (`makes`): its folder is copied in first.
  var needs: String?
  var makes: String?
  var timeout: Double = 60

  static let keys = ["skip", "exit", "expect", "stdout", "stderr", "ports", "needs", "makes", "timeout"]

  /// Parses the items of one comment: `key: value` or `key value`, one per line or separated by `;`.
  init(parsing text: String) throws(DocPageError) {
    let items = text.split(whereSeparator: { $0 == "\n" || $0 == ";" })
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    for item in items {
      let end = item.firstIndex(where: { $0 == ":" || $0 == " " }) ?? item.endIndex
      let key = String(item[..<end])
      let value = item[end...].drop(while: { $0 == ":" || $0 == " " })
      try apply(key: key, value: String(value).trimmingCharacters(in: .whitespaces))
    }
  }

  init() {}

  private mutating func apply(key: String, value: String) throws(DocPageError) {
    switch key {
    case "skip":
      guard !value.isEmpty else { throw DocPageError("skip needs a reason") }
      skip = value
    case "exit": exit = try Self.number(value, key)
    case "expect": expect += value.split(separator: " ").map(String.init)
    case "stdout": stdout.append(value)
    case "stderr": stderr.append(value)
    case "ports":
      for port in value.split(separator: " ") { ports.append(try Self.number(String(port), key)) }
    case "needs": needs = value
    case "makes": makes = value
    case "timeout": timeout = Double(try Self.number(value, key) as Int32)
    default: throw DocPageError("unknown doc-test item \"\(key)\" (known: \(Self.keys.joined(separator: ", ")))")
    }
  }

  private static func number<T: FixedWidthInteger>(_ text: String, _ key: String) throws(DocPageError) -> T {
    guard let value = T(text) else { throw DocPageError("\(key): not a number: \"\(text)\"") }
    return value
  }
}

struct DocPageError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// README.md and every page below docs/, and the shell blocks in them.
enum DocPages {
  static let projectRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The pages, relative to the project root, sorted.
  static func pages() -> [String] {
    let docs = projectRoot.appendingPathComponent("docs")
    let found = FileManager.default.enumerator(atPath: docs.path)?.compactMap { $0 as? String } ?? []
    return ["README.md"] + found.filter { $0.hasSuffix(".md") }.map { "docs/\($0)" }.sorted()
  }

  static func text(of page: String) throws -> String {
    try String(contentsOf: projectRoot.appendingPathComponent(page), encoding: .utf8)
  }

  /// Every shell block of every page; a page whose annotations do not parse is a problem, named.
  static func load() -> (blocks: [DocBlock], problems: [String]) {
    var blocks: [DocBlock] = []
    var problems: [String] = []
    for page in pages() {
      do {
        blocks += try DocBlockScanner.blocks(in: try text(of: page), page: page)
      } catch {
        problems.append("\(page): \(error)")
      }
    }
    return (blocks, problems)
  }

  static let all = load()
}
