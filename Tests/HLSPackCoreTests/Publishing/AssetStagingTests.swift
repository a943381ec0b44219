import Foundation
import HLSPackTestSupport
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

  /// A killed run (SIGKILL) cannot remove its staging folder, which may hold
  /// keys; the next run of the asset names it, and another asset's is not its
  /// business (found by an independent check: nothing said so).
  @Test func anotherRunsHiddenFoldersAreNamed() throws {
    let parent = try TemporaryFolder()
    let fm = FileManager.default
    for name in [".movie.partial-0BADF00D", ".movie.old-12345678", ".movies.partial-87654321", "movie-extra"] {
      try fm.createDirectory(at: parent.url.appendingPathComponent(name), withIntermediateDirectories: false)
    }
    let staging = try AssetStaging(destination: parent.url.appendingPathComponent("movie"), replace: false)
    defer { staging.discard() }
    #expect(staging.othersFolders.map(\.lastPathComponent) == [".movie.old-12345678", ".movie.partial-0BADF00D"])
    let warning = try #require(staging.othersFoldersWarning)
    #expect(
      warning.contains(parent.url.appendingPathComponent(".movie.partial-0BADF00D").path)
        && warning.contains("may hold keys"))
    let alone = try AssetStaging(destination: parent.url.appendingPathComponent("other"), replace: false)
    defer { alone.discard() }
    #expect(alone.othersFoldersWarning == nil)
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
    let destination = try parent.asset("movie")
    try write("old", to: destination.appendingPathComponent("old.txt"))

    let staging = try AssetStaging(destination: destination, replace: true)
    // Until publish the old asset stays readable where players look.
    #expect(read(destination.appendingPathComponent("old.txt")) == "old")
    try write("new", to: staging.folder.appendingPathComponent("new.txt"))
    #expect(try staging.publish() == nil, "no warning: the old asset is gone")

    #expect(try FileManager.default.contentsOfDirectory(atPath: destination.path) == ["new.txt"])
    #expect(try parent.contents() == ["movie"])
  }

  /// A player polling the asset while it is replaced always finds one: the
  /// new asset takes the old one's place in one step (renaming the old one
  /// aside first left the path empty for a moment, which this caught).
  @Test func replacingNeverLeavesThePathEmpty() throws {
    let parent = try TemporaryFolder()
    let destination = try parent.asset("movie")
    let master = destination.appendingPathComponent("master.m3u8")
    try write("0", to: master)

    let watch = PathWatch(path: master.path)
    let watcher = Thread { watch.run() }
    watcher.start()
    for round in 1...200 {
      let staging = try AssetStaging(destination: destination, replace: true)
      try write("\(round)", to: staging.folder.appendingPathComponent("master.m3u8"))
      try write(
        #"{"tool": {"name": "hlspack", "version": "0"}}"#, to: staging.folder.appendingPathComponent("report.json"))
      #expect(try staging.publish() == nil)
    }
    let (looks, misses) = watch.stop()

    #expect(looks > 0)
    #expect(misses == 0, "master.m3u8 was missing \(misses) times in \(looks) looks")
    #expect(read(master) == "200")
    #expect(try parent.contents() == ["movie"])
  }

  /// The staging folder adds 18 bytes to the name: a longer name fails up
  /// front, naming the folder and the limit, not with "the file name is invalid".
  @Test func namesThatLeaveNoRoomForTheStagingFolderAreRefused() throws {
    let parent = try TemporaryFolder()
    let longest =
      String(repeating: "é", count: AssetStaging.longestName / 2) + (AssetStaging.longestName % 2 == 1 ? "x" : "")
    #expect(longest.utf8.count == 237)
    let staging = try AssetStaging(destination: parent.url.appendingPathComponent(longest), replace: false)
    staging.discard()
    let tooLong = parent.url.appendingPathComponent(longest + "y")
    let error = #expect(throws: PackError.self) { try AssetStaging(destination: tooLong, replace: false) }
    #expect("\(String(describing: error))".contains("238 bytes; at most 237"), "\(String(describing: error))")
    #expect(try parent.contents().isEmpty)
  }

  /// `chattr` on `path`; false where it does not work (not root, not ext4).
  private func chattr(_ flag: String, _ path: String) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
    process.arguments = [flag, path]
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }

  /// Files of the old asset that cannot be deleted are not a failure (the new
  /// asset is in place) but must not be left behind silently.
  @Test func replacingAnAssetWithUndeletableFilesWarnsWhereTheyAre() throws {
    let parent = try TemporaryFolder()
    let destination = try parent.asset("movie")
    let stuck = destination.appendingPathComponent("stuck")
    try FileManager.default.createDirectory(at: stuck, withIntermediateDirectories: true)
    try write("old", to: stuck.appendingPathComponent("old.txt"))
    guard chattr("+i", stuck.path) else { return }

    let staging = try AssetStaging(destination: destination, replace: true)
    try write("new", to: staging.folder.appendingPathComponent("new.txt"))
    let warning = try staging.publish()

    #expect(try FileManager.default.contentsOfDirectory(atPath: destination.path) == ["new.txt"])
    let left = parent.url.appendingPathComponent(
      try #require(try parent.contents().first { $0.hasPrefix(".movie.old-") }))
    #expect(warning?.contains(left.path) == true, "\(String(describing: warning))")
    #expect(chattr("-i", left.appendingPathComponent("stuck").path), "unfrozen, so the scratch folder can go")
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

/// Looks for a file over and over on its own thread until stopped, counting the looks that miss it.
private final class PathWatch: @unchecked Sendable {
  private let path: String
  private let lock = NSLock()
  private var stopped = false
  private var looks = 0
  private var misses = 0
  private let done = DispatchSemaphore(value: 0)

  init(path: String) { self.path = path }

  func run() {
    while !lock.withLock({ stopped }) {
      let missing = access(path, F_OK) != 0
      lock.withLock {
        looks += 1
        if missing { misses += 1 }
      }
    }
    done.signal()
  }

  func stop() -> (looks: Int, misses: Int) {
    lock.withLock { stopped = true }
    done.wait()
    return lock.withLock { (looks, misses) }
  }
}
