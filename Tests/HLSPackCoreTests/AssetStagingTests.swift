import Foundation
import Testing

@testable import HLSPackCore

@Suite struct AssetStagingTests {
  private func write(_ text: String, to url: URL) throws {
    try Data(text.utf8).write(to: url)
  }

  private func read(_ url: URL) -> String? {
    FileManager.default.contents(atPath: url.path).map { String(decoding: $0, as: UTF8.self) }
  }

  private func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

  @Test func stagesInAHiddenFolderBesideTheDestination() throws {
    let parent = try TemporaryFolder()
    let staging = try AssetStaging(destination: parent.url.appendingPathComponent("movie"), replace: false)
    defer { staging.discard() }
    #expect(staging.folder.deletingLastPathComponent().path == parent.url.path)
    #expect(staging.folder.lastPathComponent.hasPrefix(".movie.partial-"))
    #expect(exists(staging.folder))
    #expect(!exists(staging.destination))
  }

  @Test func createsMissingParents() throws {
    let root = try TemporaryFolder()
    let destination = root.url.appendingPathComponent("a/b/movie")
    let staging = try AssetStaging(destination: destination, replace: false)
    try staging.publish()
    #expect(exists(destination))
  }

  @Test func publishMovesTheFolderIntoPlace() throws {
    let parent = try TemporaryFolder()
    let destination = parent.url.appendingPathComponent("movie")
    let staging = try AssetStaging(destination: destination, replace: false)
    try write("#EXTM3U\n", to: staging.folder.appendingPathComponent("master.m3u8"))
    try staging.publish()
    #expect(read(destination.appendingPathComponent("master.m3u8")) == "#EXTM3U\n")
    // Nothing hidden is left beside the asset.
    #expect(try parent.contents() == ["movie"])
  }

  @Test func existingDestinationWithoutReplaceIsRefused() throws {
    let parent = try TemporaryFolder()
    let destination = parent.url.appendingPathComponent("movie")
    try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
    let error = #expect(throws: PackError.self) { try AssetStaging(destination: destination, replace: false) }
    guard case .output(let path, let reason)? = error else {
      Issue.record("expected PackError.output, got \(String(describing: error))")
      return
    }
    #expect(path == destination.path)
    #expect(reason.contains("already exists"))
    // The refusal happens before anything is created.
    #expect(try parent.contents() == ["movie"])
  }

  @Test func replaceSwapsTheOldAssetOut() throws {
    let parent = try TemporaryFolder()
    let destination = parent.url.appendingPathComponent("movie")
    try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
    try write("old", to: destination.appendingPathComponent("old.txt"))

    let staging = try AssetStaging(destination: destination, replace: true)
    // Until publish the old asset stays readable where players look.
    #expect(read(destination.appendingPathComponent("old.txt")) == "old")
    try write("new", to: staging.folder.appendingPathComponent("new.txt"))
    try staging.publish()

    #expect(try FileManager.default.contentsOfDirectory(atPath: destination.path) == ["new.txt"])
    #expect(try parent.contents() == ["movie"])
  }

  @Test func discardRemovesTheStagingFolder() throws {
    let parent = try TemporaryFolder()
    let staging = try AssetStaging(destination: parent.url.appendingPathComponent("movie"), replace: false)
    try write("partial", to: staging.folder.appendingPathComponent("segment-0.ts"))
    staging.discard()
    #expect(try parent.contents() == [])
  }

  @Test func releasingAnUnpublishedStagingRemovesItsFolder() throws {
    let parent = try TemporaryFolder()
    var folder: URL?
    do {
      let staging = try AssetStaging(destination: parent.url.appendingPathComponent("movie"), replace: false)
      folder = staging.folder
      try write("partial", to: staging.folder.appendingPathComponent("segment-0.ts"))
    }
    let staged = try #require(folder)
    #expect(!exists(staged))
    #expect(try parent.contents() == [])
  }

  @Test func releasingAPublishedStagingKeepsTheAsset() throws {
    let parent = try TemporaryFolder()
    let destination = parent.url.appendingPathComponent("movie")
    do {
      let staging = try AssetStaging(destination: destination, replace: false)
      try staging.publish()
    }
    #expect(exists(destination))
  }

  /// Tests run as root, so permissions cannot make a folder unwritable: a
  /// regular file where the parent folder should be does.
  @Test func unwritableParentIsAnOutputError() throws {
    let root = try TemporaryFolder()
    let blocker = root.url.appendingPathComponent("not-a-folder")
    try write("x", to: blocker)
    let error = #expect(throws: PackError.self) {
      try AssetStaging(destination: blocker.appendingPathComponent("movie"), replace: false)
    }
    guard case .output(let path, _)? = error else {
      Issue.record("expected PackError.output, got \(String(describing: error))")
      return
    }
    #expect(path == blocker.path)
  }
}
