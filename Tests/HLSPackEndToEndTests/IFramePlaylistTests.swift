import Foundation
import HLSPackCore
import HLSPackTestSupport
import Testing

/// Every I-frame playlist entry, fetched by its byte range (and decrypted the
/// way RFC 8216bis §6.3.6 describes when encrypted), decodes to one picture.
@Suite("I-frame playlists")
struct IFramePlaylistTests {
  struct Entry {
    var uri: String
    var offset: Int
    var length: Int
    var key: [String: String]?
  }

  func entries(_ playlist: PlaylistReader) throws -> [Entry] {
    var result: [Entry] = []
    var key: [String: String]?
    var range: (Int, Int)?
    var previousEnd = 0
    for line in playlist.lines {
      if line.hasPrefix("#EXT-X-KEY:") {
        let attributes = PlaylistReader.attributes(String(line.dropFirst(11)))
        key = attributes["METHOD"] == "NONE" ? nil : attributes
      } else if line.hasPrefix("#EXT-X-BYTERANGE:") {
        let parts = line.dropFirst(17).split(separator: "@").compactMap { Int($0) }
        range = (parts[0], parts.count > 1 ? parts[1] : previousEnd)
      } else if !line.hasPrefix("#"), let (length, offset) = range {
        result.append(Entry(uri: line, offset: offset, length: length, key: key))
        previousEnd = offset + length
        range = nil
      }
    }
    return result
  }

  /// The clear bytes of a range. Encrypted: widen to 16-byte blocks, take the
  /// preceding ciphertext block as the IV (or the tag's IV at offset 0), decrypt
  /// without padding, cut back to the range.
  func clearRange(_ entry: Entry, folder: URL) throws -> [UInt8] {
    let file = Array(try Data(contentsOf: folder.appendingPathComponent(entry.uri)))
    guard let key = entry.key else { return Array(file[entry.offset..<(entry.offset + entry.length)]) }
    let keyBytes = Array(try Data(contentsOf: folder.appendingPathComponent(try #require(key["URI"]))))
    let start = entry.offset / 16 * 16
    let end = min(file.count, (entry.offset + entry.length + 15) / 16 * 16)
    let iv = start == 0 ? String(try #require(key["IV"]).dropFirst(2)) : Hex.encode(Array(file[(start - 16)..<start]))
    let chunk = FileManager.default.temporaryDirectory.appendingPathComponent("iframe-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: chunk) }
    try Data(file[start..<end]).write(to: chunk)
    let result = try Command.run(
      "openssl", ["enc", "-d", "-aes-128-cbc", "-nopad", "-K", Hex.encode(keyBytes), "-iv", iv, "-in", chunk.path])
    #expect(result.status == 0, "\(result.stderr)")
    let clear = Array(result.stdout)
    return Array(clear[(entry.offset - start)..<(entry.offset - start + entry.length)])
  }

  /// Frames ffprobe decodes from bytes written to a file.
  func decodedFrames(_ bytes: [UInt8], suffix: String) throws -> Int? {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("iframe-\(UUID().uuidString).\(suffix)")
    defer { try? FileManager.default.removeItem(at: url) }
    try Data(bytes).write(to: url)
    let probe = try ffprobe(
      url.path, ["-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames"])
    return Int(probe["nb_read_frames"] ?? "")
  }

  func check(_ package: EncodedPackage, suffix: String) throws {
    #expect(
      package.master.lines.filter { $0.hasPrefix("#EXT-X-I-FRAME-STREAM-INF:") }.count == package.master.variants.count)
    for line in package.master.lines where line.hasPrefix("#EXT-X-I-FRAME-STREAM-INF:") {
      let attributes = PlaylistReader.attributes(String(line.dropFirst(26)))
      #expect(
        attributes["FRAME-RATE"] == nil && attributes["RESOLUTION"] != nil && attributes["AVERAGE-BANDWIDTH"] != nil)
      let uri = try #require(attributes["URI"])
      let playlist = try package.playlist(uri)
      #expect(playlist.lines.contains("#EXT-X-I-FRAMES-ONLY"))
      let folder = package.folder.appendingPathComponent(uri).deletingLastPathComponent()
      let initBytes = suffix == "mp4" ? Array(try Data(contentsOf: folder.appendingPathComponent("init.mp4"))) : []
      let list = try entries(playlist)
      #expect(!list.isEmpty)
      for entry in list {
        let frames = try decodedFrames(initBytes + (try clearRange(entry, folder: folder)), suffix: suffix)
        #expect(frames == 1, "\(uri): \(entry.uri) \(entry.length)@\(entry.offset) decodes to \(frames ?? -1) pictures")
      }
    }
  }

  @Test func transportStreamEntriesDecodeAlone() throws {
    try check(try EncodedPackage.with(encryption: #"{"method": "none"}"#), suffix: "ts")
  }

  @Test func encryptedTransportStreamEntriesDecryptAndDecodeAlone() throws {
    try check(try EncodedPackage.aes128(), suffix: "ts")
  }

  @Test func encryptedFragmentedMP4EntriesDecryptAndDecodeAlone() throws {
    try check(try FragmentedMP4Tests.package("aes-128"), suffix: "mp4")
  }

  @Test func iFramePlaylistsCanBeTurnedOff() throws {
    let scratch = try ScratchFolder.make()
    let profile = try Fixtures.profile(in: scratch)
    var text = try String(contentsOf: profile, encoding: .utf8)
    text = text.replacingOccurrences(of: #""container": "ts""#, with: #""container": "ts", "iframe_playlists": false"#)
    try Data(text.utf8).write(to: profile)
    let outcome = try Fixtures.encode(
      profile: profile, input: try Fixtures.clip(), output: scratch.appendingPathComponent("out"))
    let master = try String(contentsOf: outcome.destination.appendingPathComponent("master.m3u8"), encoding: .utf8)
    #expect(!master.contains("I-FRAME"))
    #expect(
      !FileManager.default.fileExists(atPath: outcome.destination.appendingPathComponent("high/iframes.m3u8").path))
  }
}
