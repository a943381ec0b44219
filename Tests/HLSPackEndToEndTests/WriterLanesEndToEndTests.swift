import Foundation
import HLSPackCore
import HLSPackTestSupport
import Logging
import Testing

@testable import HLSPack

/// A machine with cores to spare gives each copied AES-128 rendition two
/// segment writers: the package must be the one a single writer makes, to
/// the byte.
@Suite struct WriterLanesEndToEndTests {
  @Test(arguments: ["ts", "fmp4"])
  func twoWritersMakeTheSamePackageAsOne(container: String) throws {
    let scratch = try ScratchFolder.make()
    _ = try CopyModeTests.lowSource(in: scratch)
    let profile = try ProfileLoader.load(
      data: Data(
        """
        {"version": 1, "segment": {"duration": 1, "container": "\(container)"},
         "video": [{"name": "main", "codec": "copy"}, {"name": "low", "codec": "copy", "source": "low.mp4"}],
         "audio": {"codec": "copy"}, "encryption": {"method": "aes-128", "seed": "lanes"}}
        """.utf8),
      file: "lanes.json", baseDirectory: scratch)
    var packages: [URL] = []
    for cores in [1, 64] {
      let destination = scratch.appendingPathComponent("cores-\(cores)/clip")
      var encoder = AssetMaker(
        profile: profile, input: try Fixtures.clip(), destination: destination, replace: false,
        progress: SilentProgress(), logger: Logger(label: "test"))
      encoder.usableCores = { cores }
      _ = try encoder.encode()
      packages.append(destination)
    }
    let single = try files(in: packages[0])
    #expect(single.keys.contains("main/segment_00003.\(container == "ts" ? "ts" : "m4s")"))
    let same = single == (try files(in: packages[1]))
    #expect(same)
    let decode = try Command.run(
      "ffmpeg",
      [
        "-v", "error", "-allowed_extensions", "ALL", "-i", packages[1].appendingPathComponent("master.m3u8").path,
        "-map", "0", "-f", "null", "-",
      ])
    #expect(decode.status == 0 && decode.stderr.isEmpty, "\(decode.stderr)")
  }

  /// Every file under `folder` by its relative path.
  private func files(in folder: URL) throws -> [String: Data] {
    var contents: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
    while let url = enumerator?.nextObject() as? URL {
      guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
      contents[String(url.path.dropFirst(folder.path.count + 1))] = try Data(contentsOf: url)
    }
    return contents
  }
}
