import Foundation
import HLSPackTestSupport
import Testing

/// `verify --sample N` and `verify --rules`.
@Suite("hlspack verify: --sample and --rules")
struct VerifyOptionsTests {
  let verifier = VerifyTests()

  func run(_ package: URL, _ options: [String]) throws -> (status: Int32, object: [String: Any], text: String) {
    let run = try Command.run(try Fixtures.executable(), ["verify", "--json", package.path] + options)
    let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.stderr)")
    return (run.status, object, run.text)
  }

  /// The last of the two segments is truncated: one sampled segment (the
  /// first) misses it and the report says it sampled; two include the last.
  @Test func sampleReadsTheFirstAndLastSegments() throws {
    let package = try ScratchFolder.make("sample").appendingPathComponent("clip")
    #expect(try Command.run("cp", ["-a", try VerifyTests.cleanPackage("ts").path, package.path]).status == 0)
    let segment = package.appendingPathComponent("main/segment_00001.ts")
    try verifier.overwrite(segment, with: [UInt8](try Data(contentsOf: segment).dropLast(100)))

    let one = try run(package, ["--sample", "1"])
    #expect(one.status == 0 && one.object["sample"] as? Int == 1 && one.object["segments"] as? Int == 1, "\(one.text)")
    #expect((one.object["findings"] as? [Any])?.isEmpty == true, "\(one.text)")
    let human = try Command.run(try Fixtures.executable(), ["verify", package.path, "--sample", "1"]).text
    #expect(human.contains("Sampled 1 segment per media playlist"), "\(human)")

    let two = try run(package, ["--sample", "2"])
    #expect(two.status == 1 && two.text.contains("\"segment.aes128-length\""), "\(two.text)")
    let all = try run(package, [])
    #expect(all.object["sample"] == nil && all.status == 1)
  }

  /// Sizes are still read for every segment: a missing one is found whatever the sample.
  @Test func sampleStillLooksEverySegmentUp() throws {
    let package = try ScratchFolder.make("samplemissing").appendingPathComponent("clip")
    #expect(try Command.run("cp", ["-a", try VerifyTests.cleanPackage("ts").path, package.path]).status == 0)
    try FileManager.default.removeItem(at: package.appendingPathComponent("main/segment_00001.ts"))
    let sampled = try run(package, ["--sample", "1"])
    #expect(sampled.status == 1 && sampled.text.contains("\"segment.missing\""), "\(sampled.text)")
  }

  /// FRAME-RATE is optional in RFC 8216bis and required by Apple's HLS Authoring Specification.
  @Test func rfcRulesLeaveOutApplesOwn() throws {
    let result = try verifier.broken {
      try verifier.edit($0.appendingPathComponent("master.m3u8")) {
        $0.replacingOccurrences(of: ",FRAME-RATE=25.000\n", with: "\n")
      }
    }
    #expect(result.rules == ["multivariant.attribute-missing"] && result.status == 1)
    let package = try ScratchFolder.make("rfcrules").appendingPathComponent("clip")
    #expect(try Command.run("cp", ["-a", try VerifyTests.cleanPackage("ts").path, package.path]).status == 0)
    try verifier.edit(package.appendingPathComponent("master.m3u8")) {
      $0.replacingOccurrences(of: ",FRAME-RATE=25.000\n", with: "\n")
    }
    let rfc = try run(package, ["--rules", "rfc"])
    #expect(rfc.status == 0 && (rfc.object["findings"] as? [Any])?.isEmpty == true, "\(rfc.text)")
  }

  @Test(arguments: [["--rules", "w3c"], ["--sample", "0"], ["--sample", "x"]])
  func badOptionsAreUsageErrors(options: [String]) throws {
    let run = try Command.run(
      try Fixtures.executable(), ["verify", try VerifyTests.cleanPackage("ts").path] + options)
    #expect(run.status == 64, "\(run.stderr)")
  }
}
