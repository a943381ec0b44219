import Foundation
import HLSPackCore
import Logging

/// Makes the assets of a batch, several at once: each is skipped when its
/// published record matches what would make it now, made anew when its input,
/// other files, profile or hlspack changed (replacing the old one in one
/// step), and made when absent or failed before. A failing asset does not
/// stop the others.
public struct BatchRunner: Sendable {
  public var plans: [BatchPlan]
  public var jobs: Int
  public var force: Bool
  public var progress: ProgressReporter
  public var logger: Logger
  /// The cores this run may keep busy, shared among the jobs.
  public var cores: Int
  /// `batch --verify`: each asset is verified before it is published (`AssetMaker.verifies`).
  public var verifies = false
  /// When the run started, by the output file system's clock
  /// (`FileSystemClock`): an asset changed since was published by a
  /// concurrent run, and is left to it.
  public var startedAt: timespec?
  /// Another run of this shard was writing into the output folder when this
  /// one started (it held the report's lock): an existing asset may be that
  /// run's, published before this one's clock started, so none is replaced.
  public var anotherRunActive = false

  public init(plans: [BatchPlan], jobs: Int, force: Bool, progress: ProgressReporter, logger: Logger, cores: Int) {
    self.plans = plans
    self.jobs = jobs
    self.force = force
    self.progress = progress
    self.logger = logger
    self.cores = cores
  }

  /// Packaging without re-encoding is bound by I/O and AES, so one asset per
  /// core; an encoder already keeps every core busy, so one asset at a time.
  public static func defaultJobs(for plans: [BatchPlan], cores: Int) -> Int {
    plans.allSatisfy(\.profile.copiesVideo) ? max(1, cores) : 1
  }

  public func run() -> [BatchOutcome] {
    let results = ResultSlots(count: plans.count)
    DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, plans.count))) { _ in
      while let index = results.claim() { results.store(make(plans[index]), at: index) }
    }
    return results.values
  }

  private func make(_ plan: BatchPlan) -> BatchOutcome {
    let started = Date()
    let asset = plan.entry.asset
    var outcome = BatchOutcome(plan: plan)
    do {
      // Held from the decision to the publish: a concurrent run that wants this asset fails it instead.
      let claim = try AssetClaim.take(plan.destination)
      defer { claim.release() }
      // Also for an asset found up to date: what a killed run left beside it goes.
      if let note = AssetStaging.removedNote(AssetStaging.removeAbandoned(beside: plan.destination).removed) {
        logger.warning("\(asset): \(note)")
      }
      switch try decision(plan) {
      case .upToDate:
        outcome.status = .skipped
        outcome.reason = "up to date"
        progress.report(
          ProgressEvent(event: .skipped, asset: asset, input: plan.entry.input.path, message: "up to date"))
      case .make(let replace, let reason, let provenance):
        if replace { try checkNotPublishedDuringThisRun(plan) }
        outcome.reason = reason
        let keysFolder = SegmentProtection(plan.profile).encrypts ? plan.profile.encryption.keysFolder : nil
        let keysDestination = try Packager.keysDestinations(for: [plan.destination], keysFolder: keysFolder)[0]
        var encoder = AssetMaker(
          profile: plan.profile, input: plan.entry.input, destination: plan.destination,
          keysDestination: keysDestination,
          replace: replace, progress: progress, logger: logger)
        let share = max(1, cores / max(1, min(jobs, plans.count)))
        encoder.usableCores = { share }
        if share < cores { encoder.coreShare = share }
        encoder.provenance = provenance
        encoder.verifies = verifies
        encoder.claim = claim
        _ = try encoder.encode()
        outcome.status = .published
      }
      outcome.bytes = Self.bytes(in: plan.destination)
    } catch {
      let packError = (error as? PackError) ?? .media(path: plan.entry.input.path, reason: "\(error)")
      outcome.status = .failed
      outcome.error = packError.description
      progress.report(
        ProgressEvent(event: .failed, asset: asset, input: plan.entry.input.path, message: packError.description))
    }
    outcome.seconds = (Date().timeIntervalSince(started) * 1000).rounded() / 1000
    return outcome
  }

  enum Decision: Equatable {
    case upToDate
    /// `provenance`: what the asset's record will say, when the decision had to compute it.
    case make(replace: Bool, reason: String, provenance: AssetProvenance? = nil)
  }

  func decision(_ plan: BatchPlan) throws -> Decision {
    var info = stat()
    guard lstat(plan.destination.path, &info) == 0 else { return .make(replace: false, reason: "new") }
    if force { return .make(replace: true, reason: "--force") }
    // A batch has no --reproducible: its assets are reproducible when seeded.
    let current = try AssetProvenance(
      profile: plan.profile, input: plan.entry.input, reproducible: plan.profile.encryption.seed != nil)
    guard let recorded = AssetProvenance.recorded(in: plan.destination) else {
      return .make(replace: true, reason: "no record of what made it", provenance: current)
    }
    if recorded == current { return .upToDate }
    let reason =
      recorded.input != current.input
      ? "the input changed"
      : recorded.sources != current.sources
        ? "a rendition source or subtitle file changed"
        : recorded.profileSHA256 != current.profileSHA256
          ? "the profile changed"
          : "made by hlspack \(recorded.version)"
    return .make(replace: true, reason: reason, provenance: current)
  }

  /// Two runs at once whose manifests name one asset must not both report
  /// it as theirs: one that another run published after this one started
  /// (its folder changed since, by the same clock) is that run's.
  private func checkNotPublishedDuringThisRun(_ plan: BatchPlan) throws {
    if anotherRunActive {
      throw PackError.output(
        path: plan.destination.path,
        reason:
          "another hlspack run is writing into this output folder and this asset exists; this run leaves it to that one (run again to replace it)"
      )
    }
    guard let startedAt, let changed = FileSystemClock.changeTime(of: plan.destination.path),
      FileSystemClock.isAtOrAfter(changed, startedAt)
    else { return }
    throw PackError.output(
      path: plan.destination.path,
      reason:
        "another hlspack run published this asset after this run started; this run leaves it to that one (run again to replace it)"
    )
  }

  /// The bytes of the regular files under `folder`.
  static func bytes(in folder: URL) -> Int64 {
    guard
      let walker = FileManager.default.enumerator(
        at: folder, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])
    else { return 0 }
    var total: Int64 = 0
    for case let url as URL in walker {
      guard let values = try? url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey]),
        values.isRegularFile == true
      else { continue }
      total += Int64(values.fileSize ?? 0)
    }
    return total
  }
}

/// One result per plan, filled by several threads, each claiming the next plan.
private final class ResultSlots: @unchecked Sendable {
  private let lock = NSLock()
  private var next = 0
  private var slots: [BatchOutcome?]

  init(count: Int) { slots = Array(repeating: nil, count: count) }

  func claim() -> Int? {
    lock.withLock {
      guard next < slots.count else { return nil }
      defer { next += 1 }
      return next
    }
  }

  func store(_ outcome: BatchOutcome, at index: Int) { lock.withLock { slots[index] = outcome } }

  var values: [BatchOutcome] { lock.withLock { slots.compactMap { $0 } } }
}
