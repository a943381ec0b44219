/// What the matching rules ask of one response, folded in rule order: lists
/// (requirements, headers) add up, delays add up, and every other action is
/// taken from the first rule that sets it. Delays add up to at most
/// `ScenarioLimits.longestMilliseconds`.
struct ResponsePlan: Sendable, Equatable {
  var ruleNames: [String] = []
  var requirements: [Requirement] = []
  var status: Int?
  var delayMs = 0
  var stall: Stall?
  var truncateBytes: Int?
  var closeConnection = false
  var key: KeyFault?
  var headers: [(name: String, value: String)] = []
  var throughput: Throughput?

  mutating func add(_ action: RuleAction, named name: String) {
    ruleNames.append(name)
    requirements += action.require ?? []
    status = status ?? action.status
    delayMs = ScenarioLimits.clampedMilliseconds(delayMs + ScenarioLimits.clampedMilliseconds(action.delayMs ?? 0))
    stall = stall ?? action.stall
    truncateBytes = truncateBytes ?? action.truncateBytes
    closeConnection = closeConnection || action.closeConnection == true
    key = key ?? action.key
    headers += (action.headers ?? [:]).sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    throughput = throughput ?? action.throughput
  }

  static func == (lhs: ResponsePlan, rhs: ResponsePlan) -> Bool {
    lhs.ruleNames == rhs.ruleNames && lhs.requirements == rhs.requirements && lhs.status == rhs.status
      && lhs.delayMs == rhs.delayMs && lhs.stall == rhs.stall && lhs.truncateBytes == rhs.truncateBytes
      && lhs.closeConnection == rhs.closeConnection && lhs.key == rhs.key
      && lhs.headers.map { "\($0.name):\($0.value)" } == rhs.headers.map { "\($0.name):\($0.value)" }
      && lhs.throughput == rhs.throughput
  }
}
