import Foundation

/// Finds the fenced shell blocks of one Markdown page and the doc-test
/// comment that stands right before each (only blank lines between).
enum DocBlockScanner {
  static let shellLanguages: Set<String> = ["sh", "bash", "shell", "console"]
  static let marker = "<!-- doc-test:"

  static func blocks(in text: String, page: String) throws(DocPageError) -> [DocBlock] {
    let lines = text.components(separatedBy: "\n")
    var blocks: [DocBlock] = []
    var pending: (line: Int, annotations: DocAnnotations)?
    var index = 0
    while index < lines.count {
      let line = lines[index]
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix(marker) {
        let (comment, last) = try self.comment(lines, from: index, page: page)
        if pending != nil { throw DocPageError("\(page):\(index + 1): two doc-test comments before one block") }
        do {
          pending = (index + 1, try DocAnnotations(parsing: comment))
        } catch {
          throw DocPageError("\(page):\(index + 1): \(error)")
        }
        index = last + 1
        continue
      }
      if let fence = Fence(trimmed) {
        let close = lines[(index + 1)...].firstIndex { Fence.closes(fence, $0) } ?? lines.count
        let body = Array(lines[(index + 1)..<min(close, lines.count)])
        if shellLanguages.contains(fence.language) {
          let script = fence.language == "console" ? consoleCommands(body) : body.joined(separator: "\n")
          blocks.append(
            DocBlock(page: page, line: index + 1, script: script, annotations: pending?.annotations ?? DocAnnotations())
          )
        } else if let pending {
          throw DocPageError("\(page):\(pending.line): a doc-test comment before a \(fence.language) block")
        }
        pending = nil
        index = close + 1
        continue
      }
      if !trimmed.isEmpty, let pending {
        throw DocPageError("\(page):\(pending.line): a doc-test comment not followed by a shell block")
      }
      index += 1
    }
    if let pending { throw DocPageError("\(page):\(pending.line): a doc-test comment at the end of the page") }
    return blocks
  }

  /// The comment's text from `<!-- doc-test:` to `-->`, and the line it ends on.
  private static func comment(_ lines: [String], from start: Int, page: String) throws(DocPageError) -> (String, Int) {
    var text = ""
    for index in start..<lines.count {
      text += lines[index] + "\n"
      if lines[index].contains("-->") {
        let inner = text.drop(while: { $0 != ":" }).dropFirst()
        return (String(inner).components(separatedBy: "-->")[0], index)
      }
    }
    throw DocPageError("\(page):\(start + 1): a doc-test comment without -->")
  }

  /// A console block's commands: the lines after a `$ ` prompt (and their `\` continuations).
  static func consoleCommands(_ body: [String]) -> String {
    var commands: [String] = []
    var continuing = false
    for line in body {
      if line.hasPrefix("$ ") {
        commands.append(String(line.dropFirst(2)))
      } else if continuing {
        commands.append(line)
      }
      continuing = (line.hasPrefix("$ ") || continuing) && line.hasSuffix("\\")
    }
    return commands.joined(separator: "\n")
  }
}

/// An opening code fence: three or more backticks or tildes and an info string.
struct Fence {
  var character: Character
  var length: Int
  var language: String

  init?(_ trimmed: String) {
    guard let first = trimmed.first, first == "`" || first == "~" else { return nil }
    let run = trimmed.prefix { $0 == first }.count
    guard run >= 3 else { return nil }
    character = first
    length = run
    language = String(trimmed.dropFirst(run).prefix { !$0.isWhitespace && $0 != "{" }).lowercased()
  }

  static func closes(_ fence: Fence, _ line: String) -> Bool {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    return trimmed.count >= fence.length && trimmed.allSatisfy { $0 == fence.character }
  }
}
