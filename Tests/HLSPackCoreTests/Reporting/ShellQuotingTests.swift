import Foundation
import HLSPackTestSupport
import Testing

@testable import HLSPackCore

/// Paths printed on stdout are quoted as GNU ls quotes them
/// (`--quoting-style=shell-escape`), which is the independent check here.
@Suite struct ShellQuotingTests {
  static let names = [
    "plain", "a=b", "a^b", "a%b+c,d:e@f", "~home", "a~", "#hash", "a#", "a{b}c]", "it's", "a b", "a!b", "new\nline",
    "\u{1B}[31mred", "tab\there", "café", "it's \"quoted\"", "bell\u{7}",
  ]

  @Test func quotesAsGNULsDoes() throws {
    let folder = try TemporaryFolder()
    for name in Self.names {
      #expect(
        FileManager.default.createFile(atPath: folder.url.appendingPathComponent(name).path, contents: nil), "\(name)")
    }
    let ls = Process()
    ls.executableURL = URL(fileURLWithPath: "/bin/ls")
    ls.arguments = ["-1", "--quoting-style=shell-escape", "--sort=none", folder.url.path]
    ls.environment = ["LC_ALL": "C.UTF-8"]
    let out = Pipe()
    ls.standardOutput = out
    try ls.run()
    let listed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
      .map(String.init)
    ls.waitUntilExit()
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    #expect(Set(names.map(ShellQuoting.quote)) == Set(listed))
    #expect(listed.count == Self.names.count)
  }

  @Test func anEmptyTextIsTwoQuotes() {
    #expect(ShellQuoting.quote("") == "''")
  }

  /// Where ls prints it as is: a right-to-left override would show the
  /// path's end reversed ("exe.txt" as "txt.exe").
  @Test func formatCharactersAreEscapedToo() {
    #expect(ShellQuoting.quote("a\u{202E}txt.exe") == #"'a'$'\342\200\256''txt.exe'"#)
  }
}
