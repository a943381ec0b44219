import Foundation
import HLSPackTestSupport
import Testing

/// Every shell block of README.md and docs/ works as written: it is run in a
/// scratch folder as a reader pastes it, and its exit status, the files and
/// the lines it promises are checked; or it says, in its doc-test comment,
/// why it cannot run here (Docker, macOS, cloud, this suite itself). A
/// renamed option or a missing shipped file fails here.
@Suite("Documentation examples")
struct DocExamplesTests {
  @Test func everyPageParses() {
    #expect(DocPages.all.problems.isEmpty, "\(DocPages.all.problems.joined(separator: "\n"))")
    #expect(DocPages.all.blocks.count > 10, "found only \(DocPages.all.blocks.count) shell blocks")
  }

  @Test(arguments: DocPages.all.blocks)
  func block(_ block: DocBlock) async throws {
    if let reason = block.annotations.skip {
      // Not runnable here; the reason is in the page, next to the block.
      #expect(!reason.isEmpty)
      return
    }
    let outcome = try await DocBlockRunner.shared.outcome(of: block)
    let shown = Self.describe(block, outcome)
    #expect(!outcome.timedOut, "timed out after \(block.annotations.timeout) s\n\(shown)")
    #expect(outcome.status == block.annotations.exit, "exit status \(outcome.status)\n\(shown)")
    for path in block.annotations.expect {
      let exists = FileManager.default.fileExists(atPath: outcome.folder.appendingPathComponent(path).path)
      #expect(exists, "the block promises \(path), which it did not leave\n\(shown)")
    }
    for text in block.annotations.stdout {
      #expect(outcome.stdout.contains(text), "stdout lacks \"\(text)\"\n\(shown)")
    }
    for text in block.annotations.stderr {
      #expect(outcome.stderr.contains(text), "stderr lacks \"\(text)\"\n\(shown)")
    }
  }

  /// .ci/run calls the README's test command, and nothing the README does not tell a user to do.
  @Test func ciRunsTheReadmesTestCommand() throws {
    let ci = try String(contentsOf: DocPages.projectRoot.appendingPathComponent(".ci/run"), encoding: .utf8)
    let commands = ci.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty && !$0.hasPrefix("#") && !$0.hasPrefix("set ") && !$0.hasPrefix("cd ") }
    #expect(commands.count == 1, "\(commands)")
    for command in commands {
      let inReadme = DocPages.all.blocks.contains { $0.page == "README.md" && $0.script.contains(command) }
      #expect(inReadme, ".ci/run runs \"\(command)\", which no README block tells a user to run")
    }
  }

  /// The landing page stays a landing page; the manual is in docs/.
  @Test func readmeIsALandingPage() throws {
    let lines = try DocPages.text(of: "README.md").split(separator: "\n", omittingEmptySubsequences: false).count
    #expect(lines <= 210, "README.md has \(lines) lines; move detail into docs/")
  }

  static func describe(_ block: DocBlock, _ outcome: DocBlockOutcome) -> String {
    """
    \(block.id) (ran in \(outcome.folder.path), \(String(format: "%.1f", outcome.seconds)) s):
    \(block.script)
    --- stdout (last 2000 characters)
    \(outcome.stdout.suffix(2000))
    --- stderr (last 3000 characters)
    \(outcome.stderr.suffix(3000))
    """
  }
}
