import Foundation
import HLSPackCore
import HLSPackTestSupport
import Testing

/// `segment.single_file`: one file per rendition, its segments byte ranges
/// of it. Each package passes `hlspack verify` and decodes frame for frame as
/// its clear twin (the same profile with separate clear segments): through
/// FFmpeg's HLS demuxer, and as the file its ranges make once each AES-128
/// range is decrypted alone by the openssl CLI with its playlist's IV.
@Suite("segment.single_file: one file per rendition, addressed with EXT-X-BYTERANGE")
struct SingleFileTests {
  static let cases: [(String, String)] = [("ts", "none"), ("ts", "aes-128"), ("fmp4", "none"), ("fmp4", "aes-128")]

  @Test(arguments: cases)
  func rangesCoverOneFileAndVerifyPasses(_ container: String, _ method: String) throws {
    let asset = try SingleFilePackage.asset(container: container, method: method, singleFile: true)
    let name = container == "ts" ? "media.ts" : "media.mp4"
    let files = try FileManager.default.contentsOfDirectory(atPath: asset.appendingPathComponent("360p").path)
    #expect(files.sorted() == ["iframes.m3u8", "index.m3u8", name])
    let file = Array(try Data(contentsOf: asset.appendingPathComponent("360p/\(name)")))
    let (map, segments) = try SingleFilePackage.ranges(asset.appendingPathComponent("360p/index.m3u8"))
    #expect((map == nil) == (container == "ts"))
    #expect(segments.count == 4)
    // In order, without gap or overlap, to the end of the file.
    var next = 0
    for range in [map].compactMap({ $0 }) + segments {
      #expect(range.offset == next)
      next = range.offset + range.length
    }
    #expect(next == file.count)
    let index = try String(contentsOf: asset.appendingPathComponent("360p/index.m3u8"), encoding: .utf8)
    #expect(index.contains(container == "ts" ? "#EXT-X-VERSION:4\n" : "#EXT-X-VERSION:6\n"))

    let verify = try Command.run(
      try Command.builtHlspack(), ["verify", asset.appendingPathComponent("master.m3u8").path])
    #expect(verify.status == 0, "\(verify.text)\(verify.stderr)")
  }

  /// Every AES-128 range is whole blocks, starts on a block of the file, and
  /// its explicit IV is the block before it (random for the file's first).
  @Test(arguments: ["ts", "fmp4"])
  func eachAES128RangeIsItsOwnCBCRunChainedToTheBlockBefore(_ container: String) throws {
    let asset = try SingleFilePackage.asset(container: container, method: "aes-128", singleFile: true)
    let name = container == "ts" ? "media.ts" : "media.mp4"
    let file = Array(try Data(contentsOf: asset.appendingPathComponent("360p/\(name)")))
    let (map, segments) = try SingleFilePackage.ranges(asset.appendingPathComponent("360p/index.m3u8"))
    var ivs: Set<String> = []
    for range in segments {
      #expect(range.offset % 16 == 0 && range.length % 16 == 0)
      let iv = try #require(range.iv)
      ivs.insert(iv)
      if range.offset >= 16 {
        #expect(iv == "0x" + Hex.encode(Array(file[(range.offset - 16)..<range.offset])).uppercased())
      }
    }
    #expect(ivs.count == segments.count)
    if let map {
      // A free box closes the init section on a block; its last 16 bytes are the first fragment's IV.
      #expect(map.offset == 0 && map.length % 16 == 0)
      #expect(String(decoding: file[0..<map.length], as: UTF8.self).contains("free"))
    }
  }

  @Test(arguments: cases)
  func rangesDecryptedAloneDecodeLikeTheClearTwin(_ container: String, _ method: String) throws {
    let asset = try SingleFilePackage.asset(container: container, method: method, singleFile: true)
    let twin = try SingleFilePackage.asset(container: container, method: "none", singleFile: false)
    let scratch = try ScratchFolder.make("single-file-clear")
    let name = container == "ts" ? "media.ts" : "media.mp4"
    let file = Array(try Data(contentsOf: asset.appendingPathComponent("360p/\(name)")))
    let (map, segments) = try SingleFilePackage.ranges(asset.appendingPathComponent("360p/index.m3u8"))
    var clear = map.map { Array(file[$0.offset..<($0.offset + $0.length)]) } ?? []
    var key: [UInt8]?
    if method != "none" {
      let keys = try FileManager.default.contentsOfDirectory(atPath: asset.appendingPathComponent("keys").path)
      key = Array(try Data(contentsOf: asset.appendingPathComponent("keys/\(try #require(keys.first))")))
    }
    for range in segments {
      let bytes = Array(file[range.offset..<(range.offset + range.length)])
      if let key, let iv = range.iv {
        clear += try SingleFilePackage.decrypt(bytes, key: key, iv: iv, in: scratch)
      } else {
        clear += bytes
      }
    }
    let ours = scratch.appendingPathComponent(name)
    try Data(clear).write(to: ours)

    // The twin's segments, one after another, make the same kind of file.
    let twinFolder = twin.appendingPathComponent("360p")
    var twinBytes: [UInt8] =
      container == "ts" ? [] : Array(try Data(contentsOf: twinFolder.appendingPathComponent("init.mp4")))
    for segment in try PlaylistReader(contentsOf: twinFolder.appendingPathComponent("index.m3u8")).segments {
      twinBytes += Array(try Data(contentsOf: twinFolder.appendingPathComponent(segment.uri)))
    }
    let theirs = scratch.appendingPathComponent("twin-\(name)")
    try Data(twinBytes).write(to: theirs)
    let ourHashes = try SingleFilePackage.frameHashes(ofFile: ours)
    #expect(ourHashes["0"]?.count == Fixtures.clipFrames)
    #expect(ourHashes == (try SingleFilePackage.frameHashes(ofFile: theirs)))
  }

  /// FFmpeg's HLS demuxer (5.1 and 8.1) decrypts an AES-128 byte range by
  /// reading the whole file through its crypto protocol and hands each
  /// range's PKCS#7 padding to the demuxer: MPEG-TS skips it, the MP4
  /// demuxer takes it for a box and stops after the first fragment (25 of
  /// 100 pictures). A client's limit (docs/players.md), not the package's:
  /// VLC, streamlink and yt-dlp play that package bit-exactly.
  @Test(arguments: cases)
  func ffmpegPlaysThePlaylistLikeTheClearTwin(_ container: String, _ method: String) throws {
    let asset = try SingleFilePackage.asset(container: container, method: method, singleFile: true)
    let twin = try SingleFilePackage.asset(container: container, method: "none", singleFile: false)
    let theirs = try FixtureClearTwinTests.frameHashes(twin.appendingPathComponent("360p/index.m3u8"))
    let ours = try FixtureClearTwinTests.frameHashes(asset.appendingPathComponent("360p/index.m3u8"))
    withKnownIssue("FFmpeg passes each AES-128 range's padding to its MP4 demuxer") {
      #expect(ours["0"]?.count == Fixtures.clipFrames)
      let same = ours == theirs
      #expect(same, "frames differ from the clear twin's")
    } when: {
      container == "fmp4" && method == "aes-128"
    }
  }
}

/// Why each range's IV is the block before it: a segment re-encrypted with an
/// IV of its own still decrypts when fetched alone, but the I-frame ranges a
/// client widens by the block before them (RFC 8216bis §6.3.6) no longer do,
/// and `verify` says so.
@Suite("segment.single_file: an IV off the chain")
struct SingleFileIVChainTests {
  @Test func aRangeWithAnIVOfItsOwnBreaksTheIFrameRanges() throws {
    let made = try SingleFilePackage.asset(container: "ts", method: "aes-128", singleFile: true)
    let scratch = try ScratchFolder.make("single-file-unchained")
    let asset = scratch.appendingPathComponent("clip")
    try FileManager.default.copyItem(at: made, to: asset)
    let folder = asset.appendingPathComponent("360p")
    let media = folder.appendingPathComponent("media.ts")
    var file = Array(try Data(contentsOf: media))
    let second = try SingleFilePackage.ranges(folder.appendingPathComponent("index.m3u8")).segments[1]
    let oldIV = try #require(second.iv)
    let keys = try FileManager.default.contentsOfDirectory(atPath: asset.appendingPathComponent("keys").path)
    let key = Array(try Data(contentsOf: asset.appendingPathComponent("keys/\(try #require(keys.first))")))
    let range = second.offset..<(second.offset + second.length)
    let clear = try SingleFilePackage.decrypt(Array(file[range]), key: key, iv: oldIV, in: scratch)
    let clearFile = scratch.appendingPathComponent("clear.bin")
    try Data(clear).write(to: clearFile)
    let newIV = "00112233445566778899AABBCCDDEEFF"
    let encrypted = try Command.run(
      "openssl", ["enc", "-aes-128-cbc", "-K", Hex.encode(key), "-iv", newIV, "-in", clearFile.path])
    try #require(encrypted.status == 0 && encrypted.stdout.count == second.length)
    file.replaceSubrange(range, with: Array(encrypted.stdout))
    try Data(file).write(to: media)
    for playlist in ["index.m3u8", "iframes.m3u8"] {
      let url = folder.appendingPathComponent(playlist)
      let text = try String(contentsOf: url, encoding: .utf8)
      try Data(text.replacingOccurrences(of: oldIV, with: "0x" + newIV).utf8).write(to: url)
    }
    let verify = try Command.run(
      try Command.builtHlspack(), ["verify", asset.appendingPathComponent("master.m3u8").path])
    #expect(verify.status == 1)
    // The segment's first I-frame range starts after its PAT, PMT and SDT,
    // which a client decrypts with the block before them, off the chain now:
    // the tables do not read, so the range holds no picture.
    #expect(
      verify.text.contains("iframe.range-invalid") || verify.text.contains("iframe.not-one-picture"), "\(verify.text)")
    #expect(!verify.text.contains("segment.aes128-undecryptable"), "\(verify.text)")
  }
}

/// What cannot apply to a single file is refused before any work: exit 2,
/// the profile field named, nothing written where the package would go.
@Suite("segment.single_file: refusals")
struct SingleFileRefusalTests {
  @Test(arguments: [
    (#""iv": "sequence", "scope": "rendition""#, "$.encryption.iv"),
    (#""clear_lead_segments": 1"#, "$.encryption.clear_lead_segments"),
  ])
  func refusedNamingTheFieldWithNothingWritten(_ fields: String, _ path: String) throws {
    let scratch = try ScratchFolder.make("single-file-refused")
    let profile = scratch.appendingPathComponent("profile.json")
    try Data(
      """
      {"version": 1, "segment": {"duration": 1, "container": "fmp4", "single_file": true},
       "video": [{"name": "360p", "width": 640, "height": 360, "bitrate": 600000, "preset": "ultrafast"}],
       "encryption": {"method": "aes-128", \(fields)}}
      """.utf8
    ).write(to: profile)
    let output = scratch.appendingPathComponent("out")
    let run = try Command.run(
      try Command.builtHlspack(),
      ["encode", "--profile", profile.path, "--output", output.path, try Fixtures.clip().path])
    #expect(run.status == 2)
    #expect(run.stderr.contains("\(path): "), "\(run.stderr)")
    #expect(run.stderr.contains("single_file"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: output.path))
  }
}
