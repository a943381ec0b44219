import Foundation
import Glibc
import HLSPackTestSupport
import Testing

@testable import HLSPackCore

/// A source is a regular file found once and checked again before its asset
/// is published; each refusal and each change is named in words.
@Suite struct FileIdentityTests {
  let folder: TemporaryFolder

  init() throws { folder = try TemporaryFolder() }

  func reason(_ body: () throws -> Void) -> String? {
    do {
      try body()
      return nil
    } catch let PackError.input(_, reason) {
      return reason
    } catch {
      return "\(error)"
    }
  }

  @Test func aMissingFileOrANamedPipeIsRefused() throws {
    let missing = folder.url.appendingPathComponent("missing.mp4").path
    #expect(reason { _ = try FileIdentity(path: missing) } == "no such file")
    let pipe = folder.url.appendingPathComponent("feed.mp4").path
    #expect(mkfifo(pipe, 0o600) == 0)
    #expect(
      reason { _ = try FileIdentity(path: pipe) }
        == "is a named pipe (FIFO), not a regular file; hlspack reads its inputs from files (save a stream to a file first)")
  }

  @Test func eachChangeIsNamed() throws {
    let path = try folder.file("a.mp4", "abc").path
    let identity = try FileIdentity(path: path)
    #expect(identity.size == 3)
    try identity.checkUnchanged()

    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("def".utf8))
    try handle.close()
    let grown = reason { try identity.checkUnchanged() }
    #expect(grown?.hasPrefix("changed while it was being encoded (its size went from 3 to 6 bytes)") == true)

    let other = try folder.file("b.mp4", "abc").path
    #expect(rename(other, path) == 0)
    #expect(reason { try identity.checkUnchanged() }?.contains("(another file took its place)") == true)

    #expect(unlink(path) == 0)
    #expect(reason { try identity.checkUnchanged() }?.contains("(it is gone (No such file or directory))") == true)
  }

  @Test func statusNamesKindsAndTheSystemReason() throws {
    let path = try folder.file("a.txt", "abc").path
    let link = folder.url.appendingPathComponent("link").path
    #expect(symlink(path, link) == 0)
    #expect(try FileStatus(path: link).kind == .regular)
    #expect(try FileStatus(path: link, followingLinks: false).kind == .symbolicLink)
    #expect(try FileStatus(path: folder.url.path).kind.description == "a folder")
    #expect(throws: SystemError(code: ENOENT)) { try FileStatus(path: path + ".gone") }
    #expect(SystemError(code: ENOENT).quoted == "(No such file or directory)")
  }
}
