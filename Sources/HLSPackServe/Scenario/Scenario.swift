import Foundation

/// A scenario file: rules that change how the server answers some requests.
/// Every rule whose `match` fits a request applies its `action`; when several
/// set the same single-valued action (a status, a stall…), the first rule wins.
/// Profiles/serve-scenario.schema.json describes the format.
public struct Scenario: Decodable, Sendable, Equatable {
  var rules: [ScenarioRule]

  public static let empty = Scenario(rules: [])
  /// A scenario is a few rules; anything larger is a mistake (or `/dev/zero`).
  static let maximumBytes = 1 << 20

  /// Reads and checks a scenario file, reading at most `maximumBytes` + 1 bytes of it.
  static func read(path: String) throws -> Scenario {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
      throw ServeError.scenarioUnreadable(path: path, reason: "a folder, not a file")
    }
    let data: Data
    do {
      let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
      defer { try? handle.close() }
      data = try handle.read(upToCount: maximumBytes + 1) ?? Data()
    } catch {
      throw ServeError.scenarioUnreadable(path: path, reason: error.localizedDescription)
    }
    guard data.count <= maximumBytes else {
      throw ServeError.scenarioUnreadable(path: path, reason: "larger than \(maximumBytes) bytes")
    }
    return try load(data, source: path)
  }

  /// Decodes and checks a scenario; `source` names it in errors (a path, or the control endpoint).
  public static func load(_ data: Data, source: String) throws -> Scenario {
    let decoder = JSONDecoder()
    let scenario: Scenario
    do {
      try ScenarioKeys.check(try JSONSerialization.jsonObject(with: data))
      scenario = try decoder.decode(Scenario.self, from: data)
    } catch let error as ScenarioKeys.Unknown {
      throw ServeError.scenarioInvalid(source: source, reason: error.description)
    } catch let error as DecodingError {
      throw ServeError.scenarioInvalid(source: source, reason: Self.describe(error))
    } catch {
      throw ServeError.scenarioInvalid(source: source, reason: "not JSON (\(error.localizedDescription))")
    }
    for (index, rule) in scenario.rules.enumerated() {
      if let problem = rule.problem(at: "rules[\(index)]") {
        throw ServeError.scenarioInvalid(source: source, reason: problem)
      }
    }
    return scenario
  }

  private static func describe(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context) -> String {
      context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
      return "\(path(context)): \(context.debugDescription)"
    case .keyNotFound(let key, let context):
      return "\(path(context)): missing \"\(key.stringValue)\""
    @unknown default:
      return "\(error)"
    }
  }
}

/// One rule: which requests, and what to do to them.
struct ScenarioRule: Decodable, Sendable, Equatable {
  var name: String?
  var match: RuleMatch
  var action: RuleAction
}

/// Which requests a rule applies to; every field given must fit.
struct RuleMatch: Decodable, Sendable, Equatable {
  var kind: RequestKind?
  /// A glob (fnmatch) over the path relative to the served folder, e.g. `*/keys/*.key`; `*` also crosses `/`.
  var path: String?
  var rendition: String?
  var method: String?
  /// Segment indexes, from the segment's file name.
  var segment: [Int]?
  /// Which of the requests that fit every other field: 1 is the first since the scenario was loaded.
  var nth: [Int]?
  /// Seconds since the scenario was loaded (server start, or the last `POST /_hlspack/scenario`).
  var fromSeconds: Double?
  var untilSeconds: Double?

  enum CodingKeys: String, CodingKey {
    case kind, path, rendition, method, segment, nth
    case fromSeconds = "from_seconds"
    case untilSeconds = "until_seconds"
  }
}

/// What a rule does. Checks run first (a failed requirement answers 401 or
/// 403), then the delay, then a status, else the file with its faults.
struct RuleAction: Decodable, Sendable, Equatable {
  var require: [Requirement]?
  var status: Int?
  var delayMs: Int?
  var stall: Stall?
  var truncateBytes: Int?
  var closeConnection: Bool?
  var key: KeyFault?
  var headers: [String: String]?
  var throughput: Throughput?

  enum CodingKeys: String, CodingKey {
    case require, status, stall, key, headers, throughput
    case delayMs = "delay_ms"
    case truncateBytes = "truncate_bytes"
    case closeConnection = "close_connection"
  }
}

/// A header, cookie or query parameter the request must carry: 401 when
/// absent, 403 when present with another value (any value passes when `value` is absent).
struct Requirement: Decodable, Sendable, Equatable {
  var header: String?
  var cookie: String?
  var query: String?
  var value: String?
}

/// Send `afterBytes` of the body, wait `ms`, then send the rest.
struct Stall: Decodable, Sendable, Equatable {
  var afterBytes: Int
  var ms: Int

  enum CodingKeys: String, CodingKey {
    case ms
    case afterBytes = "after_bytes"
  }
}

/// Key bytes that a client must reject: `wrong` (16 bytes, every bit flipped), `short` (the first 15), `long` (17).
enum KeyFault: String, Decodable, Sendable, Equatable {
  case wrong, short, long
}

/// A pace for the body bytes: each step holds for `seconds`, the last one for ever.
struct Throughput: Decodable, Sendable, Equatable {
  enum Scope: String, Decodable, Sendable { case connection, rendition }
  var per: Scope?
  var schedule: [Step]

  struct Step: Decodable, Sendable, Equatable {
    var bytesPerSecond: Double
    var seconds: Double?

    enum CodingKeys: String, CodingKey {
      case seconds
      case bytesPerSecond = "bytes_per_second"
    }
  }

  /// The rate at `elapsed` seconds into the schedule, within `ScenarioLimits.bytesPerSecond` whatever the steps hold.
  func bytesPerSecond(at elapsed: Double) -> Double {
    var start = 0.0
    for step in schedule.dropLast() {
      let end = start + (step.seconds ?? 0)
      if elapsed < end { return ScenarioLimits.clampedRate(step.bytesPerSecond) }
      start = end
    }
    return ScenarioLimits.clampedRate(schedule.last?.bytesPerSecond ?? .infinity)
  }
}
