/// Checks a decoded rule against `ScenarioLimits`; a problem names its JSON
/// path (`rules[2].action.stall.ms`) so that the file can be fixed.
extension ScenarioRule {
  /// The rule's first problem as "PATH: what is wrong", or nil; `path` is the rule's own (`rules[2]`).
  func problem(at path: String) -> String? {
    match.problem(at: path + ".match") ?? action.problem(at: path + ".action")
  }
}

extension RuleMatch {
  func problem(at path: String) -> String? {
    if let nth, let index = nth.firstIndex(where: { $0 < 1 }) {
      return "\(path).nth[\(index)]: \(nth[index]) (nth counts from 1)"
    }
    if let segment, let index = segment.firstIndex(where: { $0 < 0 }) {
      return "\(path).segment[\(index)]: \(segment[index]) is negative"
    }
    return ScenarioCheck.seconds(fromSeconds, at: path + ".from_seconds")
      ?? ScenarioCheck.seconds(untilSeconds, at: path + ".until_seconds")
  }
}

extension RuleAction {
  func problem(at path: String) -> String? {
    for (index, requirement) in (require ?? []).enumerated() {
      if let problem = requirement.problem(at: "\(path).require[\(index)]") { return problem }
    }
    if let status, !ScenarioLimits.statuses.contains(status) {
      return "\(path).status: \(status) is not a final status (200…599)"
    }
    if let problem = ScenarioCheck.milliseconds(delayMs, at: path + ".delay_ms") { return problem }
    if let stall {
      if stall.afterBytes < 0 { return "\(path).stall.after_bytes: \(stall.afterBytes) is negative" }
      if let problem = ScenarioCheck.milliseconds(stall.ms, at: path + ".stall.ms") { return problem }
    }
    if let truncateBytes, truncateBytes < 0 { return "\(path).truncate_bytes: \(truncateBytes) is negative" }
    for name in (headers ?? [:]).keys.sorted() {
      if let problem = ScenarioCheck.header(name, value: headers?[name] ?? "", at: "\(path).headers") {
        return problem
      }
    }
    return throughput?.problem(at: path + ".throughput")
  }
}

extension Requirement {
  func problem(at path: String) -> String? {
    guard [header, cookie, query].compactMap({ $0 }).count == 1 else {
      return "\(path): a requirement names exactly one of \"header\", \"cookie\" or \"query\""
    }
    if let header, !ScenarioLimits.isToken(header) { return "\(path).header: \"\(header)\" is not a header name" }
    return nil
  }
}

extension Throughput {
  func problem(at path: String) -> String? {
    if schedule.isEmpty { return "\(path).schedule is empty" }
    for (index, step) in schedule.enumerated() {
      let at = "\(path).schedule[\(index)]"
      if !ScenarioLimits.bytesPerSecond.contains(step.bytesPerSecond) {
        return "\(at).bytes_per_second: \(step.bytesPerSecond) is not within 1…1e12"
      }
      if let problem = ScenarioCheck.seconds(step.seconds, at: at + ".seconds") { return problem }
    }
    return nil
  }
}

enum ScenarioCheck {
  static func seconds(_ value: Double?, at path: String) -> String? {
    guard let value, !(0...ScenarioLimits.longestSeconds).contains(value) else { return nil }
    return "\(path): \(value) is not within 0…\(Int(ScenarioLimits.longestSeconds)) seconds (7 days)"
  }

  static func milliseconds(_ value: Int?, at path: String) -> String? {
    guard let value, !(0...ScenarioLimits.longestMilliseconds).contains(value) else { return nil }
    return "\(path): \(value) is not within 0…\(ScenarioLimits.longestMilliseconds) milliseconds (7 days)"
  }

  /// A header a rule sets: a token name, a value without control bytes, and none that frames the message.
  static func header(_ name: String, value: String, at path: String) -> String? {
    guard ScenarioLimits.isToken(name) else { return "\(path): \"\(name)\" is not a header name" }
    if ScenarioLimits.framingHeaders.contains(name.lowercased()) {
      return "\(path).\(name): the server frames the message itself; \(name) cannot be set by a rule"
    }
    guard ScenarioLimits.isFieldValue(value) else {
      return "\(path).\(name): the value holds a control character (CR, LF, NUL…)"
    }
    return nil
  }
}
