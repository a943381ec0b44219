import Foundation
import HLSPackTestSupport
import Testing

@testable import HLSPackCore

/// Profiles, key-info files and subtitle files are read whole, with a bound,
/// and every refusal says why.
@Suite struct SmallFileTests {
  let folder: TemporaryFolder

  init() throws { folder = try TemporaryFolder() }

  @Test func regularFileIsReadWhole() throws {
    let url = folder.url.appendingPathComponent("a.txt")
    let bytes = (0..<200_000).map { UInt8($0 % 251) }
    try Data(bytes).write(to: url)
    #expect(try SmallFile.read(url.path, limit: 200_000) == bytes)
  }

  @Test func fileOverTheLimitIsRefused() throws {
    let url = folder.url.appendingPathComponent("a.txt")
    try Data(repeating: 65, count: 64 * 1024 + 1).write(to: url)
    let error = #expect(throws: SmallFile.Failure.self) { try SmallFile.read(url.path, limit: 64 * 1024) }
    #expect(error?.reason == "(larger than 64 KiB)")
  }

  /// Read whole, /dev/zero would never end.
  @Test func endlessDeviceStopsAtTheLimit() {
    let error = #expect(throws: SmallFile.Failure.self) { try SmallFile.read("/dev/zero", limit: 16 << 20) }
    #expect(error?.reason == "(larger than 16 MiB)")
  }

  @Test func folderAndMissingFileSayWhy() {
    #expect(throws: SmallFile.Failure(reason: "(it is a folder)")) { try SmallFile.read(folder.url.path, limit: 100) }
    #expect(throws: SmallFile.Failure(reason: "(No such file or directory)")) {
      try SmallFile.read(folder.url.appendingPathComponent("none").path, limit: 100)
    }
  }

  /// What a shell's `<(command)` passes: the read end of a pipe, as /dev/fd/N.
  @Test func pipeIsReadToItsEnd() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { close(ends[0]) }
    let text = Array(#"{"version": 1}"#.utf8)
    #expect(write(ends[1], text, text.count) == text.count)
    close(ends[1])
    #expect(try SmallFile.read("/dev/fd/\(ends[0])", limit: 100) == text)
  }

  /// A named pipe nobody writes to reads as empty instead of waiting for ever.
  @Test func namedPipeWithoutWriterIsEmpty() throws {
    let url = folder.url.appendingPathComponent("p.fifo")
    #expect(mkfifo(url.path, 0o600) == 0)
    #expect(try SmallFile.read(url.path, limit: 100) == [])
  }

  /// A package's files: a named pipe is refused before it is opened, a link
  /// when links are not followed, and a large file by its size before a byte is read.
  @Test func regularOnlyReadRefusesWhatIsNotARegularFile() throws {
    let pipe = folder.url.appendingPathComponent("p.fifo")
    #expect(mkfifo(pipe.path, 0o600) == 0)
    #expect(throws: SmallFile.Failure(reason: "(not a regular file: a named pipe)")) {
      try SmallFile.readRegular(pipe.path, limit: 100)
    }
    #expect(throws: SmallFile.Failure(reason: "(not a regular file: a character device)")) {
      try SmallFile.readRegular("/dev/zero", limit: 100)
    }
    let file = folder.url.appendingPathComponent("a.txt")
    try Data(repeating: 65, count: 2000).write(to: file)
    #expect(throws: SmallFile.Failure(reason: "(2000 bytes, larger than 1 KiB)")) {
      try SmallFile.readRegular(file.path, limit: 1024)
    }
    let link = folder.url.appendingPathComponent("link")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "a.txt")
    #expect(try SmallFile.readRegular(link.path, limit: 4096).count == 2000)
    #expect(throws: SmallFile.Failure(reason: "(not a regular file: a symbolic link)")) {
      try SmallFile.readRegular(link.path, limit: 4096, followingLinks: false)
    }
  }
}
