import Foundation
import Synchronization

/// The scenario in force, when it was loaded, and how many requests each of
/// its rules has seen (for `nth`). Replacing the scenario restarts both.
final class ScenarioState: Sendable {
  private struct Current {
    var scenario: Scenario
    var loadedAt: ContinuousClock.Instant
    var counts: [Int]
  }
  private let current: Mutex<Current>

  init(_ scenario: Scenario) {
    current = Mutex(
      Current(scenario: scenario, loadedAt: .now, counts: Array(repeating: 0, count: scenario.rules.count)))
  }

  func replace(with scenario: Scenario) {
    current.withLock {
      $0 = Current(scenario: scenario, loadedAt: .now, counts: Array(repeating: 0, count: scenario.rules.count))
    }
  }

  /// When the scenario in force was loaded: the origin of time windows and throughput schedules.
  var loadedAt: ContinuousClock.Instant { current.withLock { $0.loadedAt } }

  /// Counts the request against every rule whose other fields fit, and folds the rules that apply.
  func plan(for target: RequestTarget, method: String) -> ResponsePlan {
    current.withLock { state in
      let elapsed = Self.seconds(ContinuousClock.now - state.loadedAt)
      var plan = ResponsePlan()
      for (index, rule) in state.scenario.rules.enumerated() {
        guard rule.match.fits(target, method: method, elapsed: elapsed) else { continue }
        state.counts[index] += 1
        if let nth = rule.match.nth, !nth.contains(state.counts[index]) { continue }
        plan.add(rule.action, named: rule.name ?? "rules[\(index)]")
      }
      return plan
    }
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}

extension RuleMatch {
  /// Every field but `nth`.
  func fits(_ target: RequestTarget, method requestMethod: String, elapsed: Double) -> Bool {
    if let kind, kind != target.kind { return false }
    if let rendition, rendition != target.rendition { return false }
    if let method, method.uppercased() != requestMethod { return false }
    if let segment {
      guard let index = target.segmentIndex, segment.contains(index) else { return false }
    }
    if let fromSeconds, elapsed < fromSeconds { return false }
    if let untilSeconds, elapsed >= untilSeconds { return false }
    if let path {
      let pattern = path.hasPrefix("/") ? String(path.dropFirst()) : path
      if fnmatch(pattern, target.relativePath, 0) != 0 { return false }
    }
    return true
  }
}
