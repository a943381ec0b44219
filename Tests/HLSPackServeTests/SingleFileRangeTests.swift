import Foundation
import HLSPackTestSupport
import Testing

/// A single-file AES-128 rendition served by `hlspack serve`: one segment's
/// byte range, fetched alone with `curl -r` as its EXT-X-BYTERANGE names it,
/// decrypts with `openssl enc -d` and the IV its EXT-X-KEY gives, and decodes
/// (an fMP4 fragment after its EXT-X-MAP range, fetched the same way).
@Suite("serve: byte ranges of a single-file AES-128 rendition")
struct SingleFileRangeTests {
  static func package(container: String) throws -> URL {
    let folder = try ScratchFolder.make("single-file-\(container)")
    let input = folder.appendingPathComponent("sample.mp4")
    try FileManager.default.copyItem(
      at: ServeFixtures.repository.appendingPathComponent("samples/sample.mp4"), to: input)
    let profile = folder.appendingPathComponent("profile.json")
    try Data(
      """
      {"version": 1, "video": [{"name": "src", "codec": "copy"}], "audio": {"codec": "copy"},
       "segment": {"duration": 4, "container": "\(container)", "single_file": true},
       "encryption": {"method": "aes-128"}}
      """.utf8
    ).write(to: profile)
    let output = folder.appendingPathComponent("out")
    let run = try Command.run(
      try ServerProcess.executable(),
      ["encode", "--profile", profile.path, "--output", output.path, "--seed", "1", "--progress", "none", input.path])
    guard run.status == 0 else { throw FixtureError("hlspack encode failed: \(run.stderr)") }
    return output
  }

  /// `n@o` as curl's `-r` range.
  static func curlRange(_ range: String) throws -> (String, Int) {
    let parts = range.split(separator: "@").compactMap { Int($0) }
    guard parts.count == 2 else { throw FixtureError("not n@o: \(range)") }
    return ("\(parts[1])-\(parts[1] + parts[0] - 1)", parts[0])
  }

  @Test(arguments: ["ts", "fmp4"])
  func oneRangeFetchedWithCurlDecryptsAloneAndDecodes(_ container: String) throws {
    let server = try ServerProcess(folder: try Self.package(container: container))
    let file = container == "ts" ? "media.ts" : "media.mp4"
    let playlist = try Curl.run("\(server.base)/sample/src/index.m3u8")
    try #require(playlist.status == 200)
    let lines = playlist.text.split(separator: "\n").map(String.init)
    // The second segment: its range, and the IV of the key tag before it.
    let rangeLines = lines.indices.filter { lines[$0].hasPrefix("#EXT-X-BYTERANGE:") }
    try #require(rangeLines.count >= 2)
    let keyLine = try #require(lines[..<rangeLines[1]].last { $0.hasPrefix("#EXT-X-KEY:") })
    let iv = try #require(keyLine.firstMatch(of: /IV=0x([0-9A-F]{32})/)?.1)
    let keyURI = try #require(keyLine.firstMatch(of: /URI="\.\.\/([^"]+)"/)?.1)
    let key = try Curl.run("\(server.base)/sample/\(keyURI)")
    try #require(key.status == 200 && key.body.count == 16)

    let (range, length) = try Self.curlRange(String(lines[rangeLines[1]].dropFirst("#EXT-X-BYTERANGE:".count)))
    let fetched = try Curl.run("\(server.base)/sample/src/\(file)", ["-r", range])
    #expect(fetched.status == 206)
    #expect(fetched.body.count == length)
    let scratch = try ScratchFolder.make("range")
    let encrypted = scratch.appendingPathComponent("range.bin")
    try fetched.body.write(to: encrypted)
    let decrypted = try Command.run(
      "openssl",
      ["enc", "-d", "-aes-128-cbc", "-K", key.body.map { String(format: "%02x", $0) }.joined(), "-iv", String(iv),
       "-in", encrypted.path])
    try #require(decrypted.status == 0, "\(decrypted.stderr)")

    var clear = Data()
    if container == "fmp4" {
      let map = try #require(lines.first { $0.hasPrefix("#EXT-X-MAP:") })
      let mapRange = try #require(map.firstMatch(of: /BYTERANGE="([0-9]+@[0-9]+)"/)?.1)
      let section = try Curl.run("\(server.base)/sample/src/\(file)", ["-r", try Self.curlRange(String(mapRange)).0])
      #expect(section.status == 206)
      clear = section.body
    }
    clear += decrypted.stdout
    let segment = scratch.appendingPathComponent("segment.\(container == "ts" ? "ts" : "mp4")")
    try clear.write(to: segment)
    let decode = try Command.run(
      "ffmpeg", ["-nostdin", "-v", "error", "-i", segment.path, "-map", "0:v", "-f", "framemd5", "-"])
    #expect(decode.status == 0 && decode.stderr.isEmpty, "\(decode.stderr)")
    #expect(decode.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.count > 10)
  }
}
