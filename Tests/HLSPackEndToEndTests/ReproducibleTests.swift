import Foundation
import HLSPackTestSupport
import Testing

/// `--reproducible`: the same input and profile give the same bytes without a
/// seed (which turns it on as well, and derives keys besides).
@Suite struct ReproducibleTests {
  @Test func twoReproducibleRunsOfAClearProfileAreIdenticalAndUntimed() throws {
    let scratch = try ScratchFolder.make()
    let profile = try Fixtures.profile(in: scratch, encryption: #"{"method": "none"}"#)
    func package(into name: String) throws -> [String: Data] {
      let output = scratch.appendingPathComponent(name)
      let result = try Command.run(
        try Fixtures.executable(),
        ["encode", "--profile", profile.path, "--output", output.path, "--reproducible", try Fixtures.clip().path])
      #expect(result.status == 0, "\(result.stderr)")
      let asset = output.appendingPathComponent("clip")
      var files: [String: Data] = [:]
      for file in try FileManager.default.subpathsOfDirectory(atPath: asset.path) {
        var isFolder: ObjCBool = false
        let url = asset.appendingPathComponent(file)
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else {
          continue
        }
        files[file] = try Data(contentsOf: url)
      }
      return files
    }
    let first = try package(into: "a")
    let second = try package(into: "b")
    #expect(first.keys.contains("report.json"))
    #expect(first.keys.contains { $0.hasSuffix(".ts") })
    #expect(first == second)
    let report = try #require(first["report.json"])
    let fields = try #require(try JSONSerialization.jsonObject(with: report) as? [String: Any])
    #expect(fields["timings"] == nil)
  }
}
