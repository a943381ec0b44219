import Foundation
import HLSPackTestSupport
import Testing

/// Each subcommand's page shows its `--help` (usage, options, defaults, exit
/// status) as the built binary prints it, so the docs cannot drift from the
/// command definitions: scripts/update-usage writes it there.
@Suite("Usage in the docs")
struct UsageDocsTests {
  static func help(_ arguments: [String]) throws -> String {
    var environment = ProcessInfo.processInfo.environment
    environment["COLUMNS"] = "80"
    let result = try Command.run(try Command.builtHlspack(), arguments + ["--help"], environment: environment)
    return result.text
  }

  /// The subcommands `hlspack COMMAND… --help` lists.
  static func subcommands(of command: [String] = []) throws -> [String] {
    let lines = try help(command).split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(of: "SUBCOMMANDS:") else { return [] }
    return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { line in
      guard line.hasPrefix("  "), let first = line.dropFirst(2).first, first.isLowercase else { return nil }
      return String(line.dropFirst(2).prefix { !$0.isWhitespace })
    }
  }

  /// Every page shows the help of its subcommand and of that subcommand's own
  /// subcommands (`fixture make`), each between its markers.
  @Test func everySubcommandsPageShowsItsHelp() throws {
    let commands = try Self.subcommands()
    #expect(commands.sorted() == ["batch", "encode", "fixture", "rewrite-keys", "serve", "verify"])
    for command in commands {
      let page = "docs/\(command).md"
      let text = try DocPages.text(of: page)
      for path in [[command]] + (try Self.subcommands(of: [command])).map({ [command, $0] }) {
        let name = path.joined(separator: " ")
        let start = "<!-- usage: \(name) -->"
        let expected = "\(start)\n```text\n\(try Self.help(path).trimmingSuffixNewlines())\n```\n<!-- /usage -->"
        guard let from = text.range(of: start),
          let to = text.range(of: "<!-- /usage -->", range: from.upperBound..<text.endIndex)
        else {
          Issue.record("\(page) has no \(start) … <!-- /usage --> markers")
          continue
        }
        let shown = String(text[from.lowerBound..<to.upperBound])
        #expect(shown == expected, "\(page)'s usage differs from `hlspack \(name) --help`: run scripts/update-usage")
      }
    }
  }
}

extension String {
  fileprivate func trimmingSuffixNewlines() -> String {
    var text = self
    while text.hasSuffix("\n") { text.removeLast() }
    return text
  }
}
