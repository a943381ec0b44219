import Foundation
import HLSPackTestSupport
import Synchronization
import Testing

@testable import HLSPackServe

@Suite("serve: the body budget")
struct BodyBudgetTests {
  @Test func aSenderWaitsForRoomAndWakesWhenItIsGivenBack() async throws {
    let budget = BodyBudget(limit: 100)
    await budget.take(60)
    await budget.take(40)
    #expect(budget.held == 100)
    let woke = Flag()
    let waiter = Task {
      await budget.take(30)
      woke.set()
    }
    try await Task.sleep(for: .milliseconds(100))
    #expect(!woke.isSet, "30 bytes do not fit beside 100 held")
    budget.giveBack(60)
    await waiter.value
    #expect(woke.isSet)
    #expect(budget.held == 70)
    budget.giveBack(40)
    budget.giveBack(30)
    #expect(budget.held == 0)
  }

  @Test func aChunkLargerThanTheLimitGoesAlone() async {
    let budget = BodyBudget(limit: 10)
    await budget.take(64)
    #expect(budget.held == 64)
    budget.giveBack(64)
    budget.add(5)
    #expect(budget.held == 5)
    budget.giveBack(5)
    #expect(budget.held == 0)
  }

  @Test func aLedgerHandsRoomOverOnceAndGivesBackWhatNeverArrives() async {
    let budget = BodyBudget(limit: 1000)
    let ledger = BodyLedger(budget: budget)
    await budget.take(100)
    #expect(ledger.send(100))
    ledger.arrived(60)
    #expect(budget.held == 100, "arrived bytes the sender took room for are not counted twice")
    ledger.failed(100)
    #expect(budget.held == 60, "the 40 bytes that never arrived go back")
    budget.giveBack(60)
    ledger.arrived(25)
    #expect(budget.held == 25, "a body no sender took room for is added")
    budget.giveBack(25)
    await budget.take(50)
    #expect(ledger.send(50))
    ledger.close()
    #expect(budget.held == 0, "a closed connection's bytes in transit go back")
    #expect(!ledger.send(10), "after the close, a sender keeps its room to give back itself")
  }

  private final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
  }
}

extension ServeEndToEnd {
  /// Every body byte taken from the budget comes back, whether the client
  /// read the whole body or hung up halfway, over HTTP and HTTPS.
  @Suite("serve: body bytes in memory")
  struct BodyBytesHeldTests {
    @Test func theBudgetIsWholeAgainAfterFinishedAndAbandonedBodies() throws {
      let folder = try ScratchFolder.make("budget")
      let bytes = Data((0..<(6 << 20)).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) })
      try bytes.write(to: folder.appendingPathComponent("large.ts"))
      let state = try ScratchFolder.make("budget-state")
      let server = try ServerProcess(
        folder: folder, arguments: ["--tls", "auto", "--tls-port", "0", "--state", state.path])
      let authority = try #require(server.authority)
      let secure = "https://127.0.0.1:\(try #require(server.tlsPort))"
      for base in [server.base, secure] {
        let whole = try Curl.run(base + "/large.ts", ["--cacert", authority])
        #expect(whole.status == 200, "\(base)")
        #expect(whole.body == bytes, "\(base)")
        let abandoned = try Curl.run(
          base + "/large.ts", ["--cacert", authority, "--limit-rate", "16k", "--max-time", "1"])
        #expect(abandoned.exitCode != 0 && abandoned.body.count < bytes.count, "\(base): the client hung up halfway")
      }
      var held = -1
      for _ in 0..<50 where held != 0 {
        let stats = try Curl.run(server.base + "/_hlspack/stats")
        let object = try #require(try JSONSerialization.jsonObject(with: stats.body) as? [String: Any])
        held = try #require(object["body_bytes_held"] as? Int)
        if held != 0 { Thread.sleep(forTimeInterval: 0.1) }
      }
      #expect(held == 0, "\(server.stderr)")
    }
  }
}
