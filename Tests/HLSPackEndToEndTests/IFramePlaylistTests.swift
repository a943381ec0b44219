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
        // SAMPLE-AES encrypts samples, not the file: its bytes are read as they are.
        key = attributes["METHOD"] == "AES-128" ? attributes : nil
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

  /// The clear PAT, PMT and SDT packets that open `entry`'s segment, as a
  /// client reads them from the start of the resource.
  func leadingTables(of entry: Entry, folder: URL) throws -> [UInt8] {
    let head = try clearRange(Entry(uri: entry.uri, offset: 0, length: 10 * 188, key: entry.key), folder: folder)
    return Array(head[..<TransportStreamLeadingTables.length(head)])
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
        // TS: the client prefixes the tables that open the segment (RFC 8216bis §4.4.3.6).
        let prefix = suffix == "mp4" ? initBytes : try leadingTables(of: entry, folder: folder)
        let frames = try decodedFrames(prefix + (try clearRange(entry, folder: folder)), suffix: suffix)
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

  /// No TS I-frame range includes the PAT and PMT that open its segment
  /// (RFC 8216bis §4.4.3.6): a segment's first range starts right after them,
  /// at the video PES of its IDR.
  @Test(arguments: [#"{"method": "none"}"#, #"{"method": "aes-128"}"#, #"{"method": "sample-aes"}"#])
  func transportStreamRangesLeaveOutTheSegmentsTables(encryption: String) throws {
    let package = try EncodedPackage.with(encryption: encryption)
    for line in package.master.lines where line.hasPrefix("#EXT-X-I-FRAME-STREAM-INF:") {
      let uri = try #require(PlaylistReader.attributes(String(line.dropFirst(26)))["URI"])
      let folder = package.folder.appendingPathComponent(uri).deletingLastPathComponent()
      var seen: Set<String> = []
      for entry in try entries(try package.playlist(uri)) where seen.insert(entry.uri).inserted {
        let head = try clearRange(
          Entry(uri: entry.uri, offset: 0, length: entry.offset + 188, key: entry.key), folder: folder)
        let pids = stride(from: 0, to: head.count, by: 188).map { Int(head[$0 + 1] & 0x1F) << 8 | Int(head[$0 + 2]) }
        // PAT, PMT (PID 0x1000, as FFmpeg numbers it) and SDT, then the range.
        #expect(pids.dropLast().sorted() == [0, 0x11, 0x1000], "\(uri): \(entry.uri) @\(entry.offset)")
        let first = Array(head[entry.offset...])
        let payload = 4 + (first[3] & 0x20 != 0 ? 1 + Int(first[4]) : 0)
        #expect(pids.last == 0x100 && first[1] & 0x40 != 0, "\(uri): \(entry.uri) @\(entry.offset)")
        #expect(Array(first[payload..<payload + 4]) == [0, 0, 1, 0xE0], "\(uri): \(entry.uri) @\(entry.offset)")
      }
    }
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
