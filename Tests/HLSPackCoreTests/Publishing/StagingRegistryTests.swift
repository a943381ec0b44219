import Foundation
import HLSPackTestSupport
import Testing

@testable import HLSPackCore

/// What the CLI's signal handler relies on: everything registered goes, and
/// nothing new appears once an interrupt has begun.
@Suite struct StagingRegistryTests {
  @Test func interruptRemovesEveryStagingFolderAndWhatIsInIt() throws {
    let parent = try TemporaryFolder()
    let registry = StagingRegistry()
    let first = try AssetStaging(
      destination: parent.url.appendingPathComponent("a"), replace: false, registry: registry)
    let second = try AssetStaging(
      destination: parent.url.appendingPathComponent("b"), replace: false, registry: registry)
    try FileManager.default.createDirectory(
      at: first.folder.appendingPathComponent("keys"), withIntermediateDirectories: false)
    try Data("key".utf8).write(to: first.folder.appendingPathComponent("keys/k.key"))
    try Data("segment".utf8).write(to: second.folder.appendingPathComponent("segment_00000.ts"))
    registry.interrupt()
    #expect(try parent.contents() == [])
  }

  @Test func nothingIsCreatedOnceInterrupted() throws {
    let parent = try TemporaryFolder()
    let registry = StagingRegistry()
    registry.interrupt()
    let refused = #expect(throws: PackError.self) {
      try AssetStaging(destination: parent.url.appendingPathComponent("a"), replace: false, registry: registry)
    }
    #expect(refused?.description.hasSuffix(": interrupted") == true, "\(String(describing: refused))")
    var ran = false
    #expect(throws: PackError.self) { try registry.unlessInterrupted(at: "x") { ran = true } }
    #expect(!ran)
    #expect(try parent.contents() == [])
  }

  /// An interrupt waits for a step under way, so a folder is never created
  /// after the handler has removed what it knew of.
  @Test func anInterruptWaitsForAStepUnderWay() async throws {
    let registry = StagingRegistry()
    let folder = try TemporaryFolder()
    let late = folder.url.appendingPathComponent("late")
    try registry.register(late)
    let interrupted = Task.detached {
      try await Task.sleep(for: .milliseconds(50))
      registry.interrupt()
    }
    try registry.unlessInterrupted(at: late.path) {
      Thread.sleep(forTimeInterval: 0.2)
      try FileManager.default.createDirectory(at: late, withIntermediateDirectories: false)
    }
    try await interrupted.value
    #expect(try folder.contents() == [])
  }

  /// An interrupt before a --force publish keeps the old asset where it was.
  @Test func publishRefusedOnceInterruptedKeepsTheOldAsset() throws {
    let parent = try TemporaryFolder()
    let registry = StagingRegistry()
    let destination = try parent.asset("movie")
    try Data("old".utf8).write(to: destination.appendingPathComponent("master.m3u8"))
    let staging = try AssetStaging(destination: destination, replace: true, registry: registry)
    try Data("new".utf8).write(to: staging.folder.appendingPathComponent("master.m3u8"))
    registry.interrupt()
    #expect(throws: PackError.self) { try staging.publish() }
    #expect(try parent.contents() == ["movie"])
    #expect(try String(contentsOf: destination.appendingPathComponent("master.m3u8"), encoding: .utf8) == "old")
  }

  /// Two threads removing one tree at once (the handler and the run it
  /// interrupts) both finish: nothing is left.
  @Test func concurrentRemovalsOfOneTreeLeaveNothing() throws {
    let parent = try TemporaryFolder()
    let tree = parent.url.appendingPathComponent(".movie.old-1")
    for folder in 0..<20 {
      let sub = tree.appendingPathComponent("r\(folder)")
      try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
      for file in 0..<50 { try Data().write(to: sub.appendingPathComponent("segment_\(file).ts")) }
    }
    DispatchQueue.concurrentPerform(iterations: 4) { _ in removeTree(at: tree) }
    #expect(try parent.contents() == [])
  }
}
