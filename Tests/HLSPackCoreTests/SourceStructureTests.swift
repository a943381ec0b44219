import Foundation
import HLSPackTestSupport
import Testing

/// scripts/check-structure over the project: no folder cycle inside a target,
/// no file over 400 lines, no function over 80 (docs/architecture.md).
@Suite("Source structure")
struct SourceStructureTests {
  static let projectRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func check(_ root: URL) throws -> CommandResult {
    try Command.run("python3", [projectRoot.appendingPathComponent("scripts/check-structure").path, root.path])
  }

  @Test func theTreeHasNoNewBreach() throws {
    let result = try Self.check(Self.projectRoot)
    #expect(result.status == 0, "scripts/check-structure:\n\(result.text)\(result.stderr)")
  }

  /// The check itself: a cycle, a long file, a long function and a stale allow line are each caught;
  /// a name in a comment or a string is no use of the type.
  @Test func eachKindOfBreachIsCaught() throws {
    let root = try ScratchFolder.make()
    defer { try? FileManager.default.removeItem(at: root) }
    func write(_ path: String, _ text: String) throws {
      let url = root.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
    try write("Sources/T/A/Alpha.swift", "public struct Alpha { var beta: Beta? }\n")
    try write("Sources/T/B/Beta.swift", "struct Beta { var alpha: [Alpha] }\n")
    try write("Sources/T/C/Gamma.swift", "struct Gamma {\n  // Alpha\n  let text = \"Beta\"\n}\n")
    try write("Sources/T/D/Delta.swift", "struct Delta { var gamma: Gamma }\n")
    try write("Sources/T/D/Long.swift", String(repeating: "let x = 1\n", count: 401))
    let body = String(repeating: "  _ = 1\n", count: 80)
    try write("Tests/X/LongFunction.swift", "func long() {\n\(body)}\nfunc short() {\n\(body.dropLast(16))}\n")
    try write("scripts/check-structure.allow", "cycle Sources/T: C D  # gone\n")
    let result = try Self.check(root)
    #expect(result.status == 1)
    let lines = result.text.split(separator: "\n").map(String.init)
    #expect(lines.contains("Sources/T: folder cycle between A, B:"))
    #expect(lines.contains("  A uses B: Beta (A/Alpha.swift)"))
    #expect(lines.contains("Sources/T/D/Long.swift: 401 lines (at most 400)"))
    #expect(lines.contains("Tests/X/LongFunction.swift:1: function of 82 lines (at most 80): func long() {"))
    #expect(lines.contains("scripts/check-structure.allow: `cycle Sources/T: C D` no longer occurs; remove the line"))
    #expect(lines.count == 6, "\(lines)")
  }
}
