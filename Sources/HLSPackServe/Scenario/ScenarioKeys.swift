/// Refuses keys the scenario format does not have, so that a misspelt
/// `"delay_msec"` fails loudly instead of doing nothing.
enum ScenarioKeys {
  struct Unknown: Error, CustomStringConvertible {
    var path: String
    var key: String
    var description: String { "\(path): unknown key \"\(key)\"" }
  }

  private static let rule: Set = ["name", "match", "action"]
  private static let match: Set = [
    "kind", "path", "rendition", "method", "segment", "nth", "from_seconds", "until_seconds",
  ]
  private static let action: Set = [
    "require", "status", "delay_ms", "stall", "truncate_bytes", "close_connection", "key", "headers", "throughput",
  ]
  private static let requirement: Set = ["header", "cookie", "query", "value"]
  private static let stall: Set = ["after_bytes", "ms"]
  private static let throughput: Set = ["per", "schedule"]
  private static let step: Set = ["bytes_per_second", "seconds"]

  static func check(_ json: Any) throws {
    guard let top = json as? [String: Any] else { return }
    try only(["rules", "$schema", "description"], in: top, at: "")
    for (index, item) in (top["rules"] as? [Any] ?? []).enumerated() {
      guard let object = item as? [String: Any] else { continue }
      let at = "rules[\(index)]"
      try only(rule, in: object, at: at)
      try only(match, in: object["match"], at: at + ".match")
      guard let actionObject = object["action"] as? [String: Any] else { continue }
      try only(action, in: actionObject, at: at + ".action")
      for (number, entry) in (actionObject["require"] as? [Any] ?? []).enumerated() {
        try only(requirement, in: entry, at: at + ".action.require[\(number)]")
      }
      try only(stall, in: actionObject["stall"], at: at + ".action.stall")
      try only(throughput, in: actionObject["throughput"], at: at + ".action.throughput")
      let steps = (actionObject["throughput"] as? [String: Any])?["schedule"] as? [Any] ?? []
      for (number, entry) in steps.enumerated() {
        try only(step, in: entry, at: at + ".action.throughput.schedule[\(number)]")
      }
    }
  }

  private static func only(_ allowed: Set<String>, in value: Any?, at path: String) throws {
    guard let object = value as? [String: Any] else { return }
    if let key = object.keys.sorted().first(where: { !allowed.contains($0) }) {
      throw Unknown(path: path.isEmpty ? "scenario" : path, key: key)
    }
  }
}
