import Foundation
import HLSPackCore

/// What became of one asset of a batch.
public struct BatchOutcome: Sendable, Codable, Equatable {
  public enum Status: String, Sendable, Codable {
    case published, skipped, failed
  }

  public var asset: String
  /// The manifest line.
  public var line: Int
  public var input: String
  public var output: String
  public var status: Status = .failed
  /// Why it was made or skipped: "new", "up to date", "the input changed", …
  public var reason: String?
  public var error: String?
  public var seconds: Double = 0
  /// The bytes of the published asset's files.
  public var bytes: Int64 = 0

  init(plan: BatchPlan) {
    asset = plan.entry.asset
    line = plan.entry.line
    input = plan.entry.input.path
    output = plan.destination.path
  }
}

/// batch-report-<shard>.json: every asset of one shard of a batch run.
public struct BatchReport: Sendable, Codable, Equatable {
  public var tool = "hlspack"
  public var version = HLSPackVersion.current
  public var manifest: String
  /// "K/N".
  public var shard: String
  public var jobs: Int
  public var seconds: Double
  public var published: Int
  public var skipped: Int
  public var failed: Int
  public var assets: [BatchOutcome]

  public init(manifest: String, shard: Shard, jobs: Int, seconds: Double, assets: [BatchOutcome]) {
    self.manifest = manifest
    self.shard = shard.description
    self.jobs = jobs
    self.seconds = (seconds * 1000).rounded() / 1000
    self.assets = assets
    published = assets.filter { $0.status == .published }.count
    skipped = assets.filter { $0.status == .skipped }.count
    failed = assets.filter { $0.status == .failed }.count
  }

  public static func fileName(for shard: Shard) -> String { "batch-report-\(shard.index).json" }

  /// Where this run's report goes, and the lock that keeps the name its own:
  /// batch-report-K.json, locked (`.batch-report-K.lock`) for the whole run.
  /// A second run of the same shard into the same folder while the first
  /// runs writes batch-report-K-<pid>.json instead, so neither replaces the
  /// other's report. Makes `folder` if needed.
  public static func claimFile(in folder: URL, shard: Shard) throws -> (file: URL, lock: FileLock?) {
    try createFolder(folder)
    let usual = folder.appendingPathComponent(fileName(for: shard))
    do {
      let lock = try FileLock(at: folder.appendingPathComponent(".batch-report-\(shard.index).lock"))
      return (usual, lock)
    } catch .held {
      return (folder.appendingPathComponent("batch-report-\(shard.index)-\(getpid()).json"), nil)
    } catch .unusable(let reason) {
      throw PackError.output(path: usual.path, reason: "cannot lock the batch report (\(reason))")
    }
  }

  /// Written beside the assets under a temporary name and renamed into place,
  /// so a reader finds the previous report or this one, never half of one.
  public func write(to target: URL) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let folder = target.deletingLastPathComponent()
    let temporary = folder.appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString.prefix(8))")
    try createFolder(folder)
    try writeFile(try encoder.encode(self) + Data("\n".utf8), to: temporary, exclusive: true)
    guard rename(temporary.path, target.path) == 0 else {
      let reason = SystemError.last.reason
      unlink(temporary.path)
      throw PackError.output(path: target.path, reason: "cannot write the batch report (\(reason))")
    }
  }
}
