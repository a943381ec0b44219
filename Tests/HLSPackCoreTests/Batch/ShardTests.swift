import Testing

@testable import HLSPackCore

@Suite struct ShardTests {
  @Test func everyAssetFallsInExactlyOneShardAndStaysThere() {
    let names = (0..<500).map { "title-\($0)" }
    let shards = (0..<3).map { Shard(index: $0, count: 3) }
    for name in names { #expect(shards.filter { $0.contains(asset: name) }.count == 1) }
    // Fixed by FNV-1a's definition, in every process and on every machine.
    #expect(Shard.hash("a") == 0xaf63_dc4c_8601_ec8c)
    #expect(names.prefix(6).map { name in shards.firstIndex { $0.contains(asset: name) } } == [2, 0, 1, 2, 1, 2])
    let counts = shards.map { s in names.filter { s.contains(asset: $0) }.count }
    #expect(counts.allSatisfy { (130...200).contains($0) }, "\(counts)")
  }

  @Test func resolvesTheOptionOrTheEnginesIndex() throws {
    #expect(try Shard.resolve(option: "2/5", count: nil, environment: [:]) == Shard(index: 2, count: 5))
    #expect(try Shard.resolve(option: nil, count: nil, environment: [:]) == .whole)
    #expect(
      try Shard.resolve(option: nil, count: 3, environment: ["JOB_COMPLETION_INDEX": "2"]) == Shard(index: 2, count: 3))
    #expect(
      try Shard.resolve(
        option: nil, count: nil, environment: ["AWS_BATCH_JOB_ARRAY_INDEX": "0", "HLSPACK_SHARDS": "4"])
        == Shard(index: 0, count: 4))
  }

  @Test(
    arguments: [
      ("5/5", nil, [:], "0 <= K < N"),
      ("1/0", nil, [:], "0 <= K < N"),
      ("a/b", nil, [:], "expected K/N"),
      ("0/2", 2, [:], "either --shard"),
      (nil, nil, ["JOB_COMPLETION_INDEX": "1"], "number of shards is not"),
      (nil, 3, [:], "no shard index"),
      (nil, 3, ["JOB_COMPLETION_INDEX": "3"], "from 0 to 2"),
      (nil, nil, ["JOB_COMPLETION_INDEX": "0", "HLSPACK_SHARDS": "x"], "HLSPACK_SHARDS"),
    ] as [(String?, Int?, [String: String], String)])
  func refusals(option: String?, count: Int?, environment: [String: String], words: String) {
    #expect(throws: Shard.Failure.self) { try Shard.resolve(option: option, count: count, environment: environment) }
    do {
      _ = try Shard.resolve(option: option, count: count, environment: environment)
    } catch {
      #expect(error.description.contains(words), "\(error)")
    }
  }
}
