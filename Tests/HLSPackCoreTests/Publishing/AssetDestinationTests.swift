import Foundation
import HLSPackTestSupport
import Testing

@testable import HLSPackCore

/// What publishing may take the place of (issue: `--force` deleted a folder
/// holding the input; two runs without it swapped each other's asset out).
@Suite struct AssetDestinationTests {
  private func write(_ text: String, to url: URL) throws {
    try Data(text.utf8).write(to: url)
  }

  private func reason(_ body: () throws -> some Any) -> String? {
    do {
      _ = try body()
      return nil
    } catch {
      return "\(error)"
    }
  }

  /// A folder hlspack did not write is refused even with `replace`, and kept.
  @Test func replaceRefusesAFolderHLSPackDidNotWrite() throws {
    let parent = try TemporaryFolder()
    let destination = parent.url.appendingPathComponent("movie")
    try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
    try write("holiday", to: destination.appendingPathComponent("notes.txt"))
    let refusal = reason { try AssetStaging(destination: destination, replace: true) }
    #expect(
      refusal?.contains("\(destination.path): already exists and is not an asset hlspack wrote") == true,
      "\(refusal ?? "")")
    #expect(try parent.contents() == ["movie"])
    #expect(try String(contentsOf: destination.appendingPathComponent("notes.txt"), encoding: .utf8) == "holiday")
  }

  /// Not even an asset hlspack wrote, once a file the run reads is inside
  /// (here reached through a link to the folder).
  @Test func replaceRefusesAnAssetHoldingAFileTheRunReads() throws {
    let parent = try TemporaryFolder()
    let destination = try parent.asset("movie")
    let input = destination.appendingPathComponent("movie.mp4")
    try write("source", to: input)
    let link = parent.url.appendingPathComponent("link")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: destination)
    let refusal = reason {
      try AssetStaging(destination: destination, replace: true, protecting: [link.appendingPathComponent("movie.mp4")])
    }
    #expect(
      refusal?.contains("\(destination.path): holds \(link.path)/movie.mp4, which this run reads") == true,
      "\(refusal ?? "")")
    #expect(FileManager.default.fileExists(atPath: input.path))
    #expect(try parent.contents() == ["link", "movie"])
  }

  @Test func replaceTakesAnEmptyFolder() throws {
    let parent = try TemporaryFolder()
    let destination = parent.url.appendingPathComponent("movie")
    try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
    let staging = try AssetStaging(destination: destination, replace: true)
    try write("new", to: staging.folder.appendingPathComponent("master.m3u8"))
    #expect(try staging.publish() == nil)
    #expect(try FileManager.default.contentsOfDirectory(atPath: destination.path) == ["master.m3u8"])
  }

  /// A link, even one leading nowhere, is refused before anything is made,
  /// replacing or not (publishing failed only at the end, after all the work).
  @Test(arguments: [false, true])
  func aSymbolicLinkAtTheDestinationIsRefused(replace: Bool) throws {
    let parent = try TemporaryFolder()
    let destination = parent.url.appendingPathComponent("movie")
    try FileManager.default.createSymbolicLink(atPath: destination.path, withDestinationPath: "/nonexistent/movie")
    let refusal = reason { try AssetStaging(destination: destination, replace: replace) }
    #expect(
      refusal?.contains(
        "\(destination.path): already exists as a symbolic link to /nonexistent/movie, which leads nowhere") == true,
      "\(refusal ?? "")")
    #expect(try parent.contents() == ["movie"])
  }

  /// Two runs of one new asset: the second to publish fails and removes its
  /// work; the first one's asset (and keys) stays.
  @Test func aSecondPublishWithoutReplaceKeepsTheFirst() throws {
    let parent = try TemporaryFolder()
    let destination = parent.url.appendingPathComponent("movie")
    let first = try AssetStaging(destination: destination, replace: false)
    let second = try AssetStaging(destination: destination, replace: false)
    try write("first", to: first.folder.appendingPathComponent("keys.json"))
    try write("second", to: second.folder.appendingPathComponent("keys.json"))
    try first.publish()
    let refusal = reason { try second.publish() }
    #expect(refusal?.contains("\(destination.path): already exists") == true, "\(refusal ?? "")")
    second.discard()
    #expect(try String(contentsOf: destination.appendingPathComponent("keys.json"), encoding: .utf8) == "first")
    #expect(try parent.contents() == ["movie"])
  }

  /// RENAME_NOREPLACE, and the fallback for file systems without it, never
  /// take the place of anything (rename(2) replaces an empty folder).
  @Test(arguments: [true, false])
  func movingWithoutReplacingTakesOnlyAFreePath(noReplaceFlag: Bool) throws {
    let parent = try TemporaryFolder()
    let fm = FileManager.default
    let source = parent.url.appendingPathComponent("staged")
    try fm.createDirectory(at: source, withIntermediateDirectories: false)
    let empty = parent.url.appendingPathComponent("empty")
    try fm.createDirectory(at: empty, withIntermediateDirectories: false)
    let file = parent.url.appendingPathComponent("file")
    try write("x", to: file)
    let link = parent.url.appendingPathComponent("link")
    try fm.createSymbolicLink(atPath: link.path, withDestinationPath: "/nonexistent")
    for taken in [empty, file, link] {
      #expect(
        DirectoryExchange.moveWithoutReplacing(source.path, to: taken.path, noReplaceFlag: noReplaceFlag) == EEXIST,
        "\(taken)")
    }
    #expect(try parent.contents() == ["empty", "file", "link", "staged"])
    let free = parent.url.appendingPathComponent("free")
    #expect(DirectoryExchange.moveWithoutReplacing(source.path, to: free.path, noReplaceFlag: noReplaceFlag) == 0)
    #expect(try parent.contents() == ["empty", "file", "free", "link"])
  }

  private func mode(_ url: URL) -> mode_t {
    var info = stat()
    return stat(url.path, &info) == 0 ? info.st_mode & 0o7777 : 0
  }

  /// The staging folder is owner-only whatever the umask (with umask 000 it
  /// was 0777: anyone could swap key files); the published asset gets what
  /// the umask gives a new folder.
  @Test func theStagingFolderIsPrivateUntilPublished() throws {
    let parent = try TemporaryFolder()
    let plain = parent.url.appendingPathComponent("plain")
    try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: false)
    let staging = try AssetStaging(destination: parent.url.appendingPathComponent("movie"), replace: false)
    #expect(mode(staging.folder) == 0o700)
    try PrivateFolder.create(staging.folder.appendingPathComponent("keys"))
    #expect(mode(staging.folder.appendingPathComponent("keys")) == 0o700)
    try staging.publish()
    #expect(mode(staging.destination) == mode(plain))
    #expect(try parent.contents() == ["movie", "plain"])
  }
}
