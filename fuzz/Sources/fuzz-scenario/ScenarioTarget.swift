import Foundation

@testable import HLSPackServe

/// `hlspack serve`'s scenario loader on the input as a scenario file (or a
/// `POST /_hlspack/scenario` body). A scenario it accepts must hold only
/// values the server can act on: its rules fold into plans whose delays,
/// statuses and paces are within `ScenarioLimits`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let scenario = try? Scenario.load(Data(UnsafeBufferPointer(start: data, count: size)), source: "fuzz.json")
  else { return 0 }
  var plan = ResponsePlan()
  for (index, rule) in scenario.rules.enumerated() {
    plan.add(rule.action, named: rule.name ?? "rules[\(index)]")
    if let throughput = rule.action.throughput {
      for elapsed in [0, 1, 1e6, .infinity, .nan] {
        precondition(
          ScenarioLimits.bytesPerSecond.contains(throughput.bytesPerSecond(at: elapsed)), "pace out of range")
      }
    }
  }
  precondition((0...ScenarioLimits.longestMilliseconds).contains(plan.delayMs), "delay out of range")
  if let status = plan.status { precondition(ScenarioLimits.statuses.contains(status), "status out of range") }
  precondition(
    plan.headers.allSatisfy { !ScenarioLimits.framingHeaders.contains($0.name.lowercased()) }, "framing header")
  if let stall = plan.stall { precondition(stall.afterBytes >= 0 && stall.ms >= 0, "stall out of range") }
  return 0
}
