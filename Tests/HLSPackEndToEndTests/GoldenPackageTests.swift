import Foundation
import HLSPackCrypto
import HLSPackTestSupport
import Testing

/// Seeded packages of the shipped sample, made without re-encoding (so that an
/// encoder update cannot change them), compared byte for byte with golden
/// folders: every file's SHA-256 in `SHA256SUMS`, and every text file (playlists,
/// report.json, keys.json) as it is, for a readable diff. The input's
/// path, which depends on the machine, reads `$INPUT`. provenance.json is left
/// out: it records the effective profile's digest, which holds this run's paths.
/// `RECORD_SNAPSHOTS=1` rewrites the golden folders.
@Suite("golden packages")
struct GoldenPackageTests {
  static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
  static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("samples")

  static let cases: [(name: String, settings: String)] = [
    ("ts-aes128", #""segment": {"duration": 4}, "encryption": {"method": "aes-128", "iv": "random"}"#),
    ("ts-sample-aes", #""segment": {"duration": 4}, "encryption": {"method": "sample-aes"}"#),
    ("fmp4-cbcs", #""segment": {"duration": 4, "container": "fmp4"}, "encryption": {"method": "sample-aes"}"#),
    ("fmp4-aes128", #""segment": {"duration": 4, "container": "fmp4"}, "encryption": {"method": "aes-128"}"#),
    (
      "ts-rotation",
      #""segment": {"duration": 2}, "encryption": {"method": "aes-128", "rotate_every": 2, "iv": "sequence"}"#
    ),
  ]

  @Test(arguments: cases.map(\.name))
  func packageMatchesItsGoldenFolder(name: String) throws {
    let settings = try #require(Self.cases.first { $0.name == name }).settings
    let folder = try ScratchFolder.make(name)
    let input = folder.appendingPathComponent("sample.mp4")
    try FileManager.default.copyItem(at: Self.samples.appendingPathComponent("sample.mp4"), to: input)
    let profile = folder.appendingPathComponent("profile.json")
    try Data(
      #"{"version": 1, "video": [{"name": "src", "codec": "copy"}], "audio": {"codec": "copy"}, \#(settings)}"#.utf8
    ).write(to: profile)
    let output = folder.appendingPathComponent("out")
    let run = try Command.run(
      try Fixtures.executable(),
      [
        "encode", "--profile", profile.path, "--output", output.path, "--seed", "golden packages (test keys only)",
        input.path,
      ])
    try #require(run.status == 0, "\(run.stderr)")

    let asset = output.appendingPathComponent("sample")
    var sums: [String] = []
    for path in try Self.files(in: asset) where path != "provenance.json" {
      var bytes = try [UInt8](Data(contentsOf: asset.appendingPathComponent(path)))
      if Self.isText(path) {
        let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: input.path, with: "$INPUT")
        try assertSnapshot(text, named: "\(name)/\(path)", in: Self.golden)
        bytes = Array(text.utf8)
      }
      sums.append("\(hex(try Digest.sha256(bytes)))  \(path)")
    }
    try assertSnapshot(sums.joined(separator: "\n") + "\n", named: "\(name)/SHA256SUMS", in: Self.golden)
    #expect(try Self.bandwidthFindings(asset) == [], "\(name)")
  }

  /// `hlspack verify` measures with the meter the packager declared
  /// BANDWIDTH and AVERAGE-BANDWIDTH with: on its own packages, none of the
  /// bandwidth rules may fail.
  static func bandwidthFindings(_ asset: URL) throws -> [String] {
    let run = try Command.run(try Fixtures.executable(), ["verify", "--json", asset.path])
    let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.stderr)")
    let rules = (json["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
    return rules.filter { $0.contains("bandwidth") || $0.contains("peak") }
  }

  static func isText(_ path: String) -> Bool {
    [".m3u8", ".json"].contains { path.hasSuffix($0) }
  }

  /// The regular files under `folder`, as sorted relative paths.
  static func files(in folder: URL) throws -> [String] {
    let walker = FileManager.default.enumerator(atPath: folder.path)
    var paths: [String] = []
    while let path = walker?.nextObject() as? String {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder),
        !isFolder.boolValue
      {
        paths.append(path)
      }
    }
    return paths.sorted()
  }
}
