import Foundation
import HLSPackCore
import HLSPackCrypto
import HLSPackTestSupport
import Testing

/// `hlspack verify` on packages hlspack makes (copy mode of the generated
/// clip, AES-128): the clean package passes with no finding, and each broken
/// copy is flagged by exactly the rule meant for it.
@Suite("hlspack verify")
struct VerifyTests {
  static let media = "main/index.m3u8"

  /// The sequence-IV package proves IVs derived from the media sequence number decrypt.
  @Test(arguments: ["ts", "fmp4", "ts-sequence-iv", "ts-clear", "ts-audio-group", "ts-audio-only"])
  func cleanPackagePasses(kind: String) throws {
    let result = try verify(try Self.cleanPackage(kind))
    #expect(result.rules == [])
    #expect(result.status == 0)
    let human = try Command.run(try Fixtures.executable(), ["verify", try Self.cleanPackage(kind).path])
    #expect(human.text.contains("0 must-fix rules and 0 should-fix rules failed"), "\(human.text)")
    let mediaOnly = try verify(try Self.cleanPackage(kind).appendingPathComponent(Self.media))
    #expect(mediaOnly.rules == [] && mediaOnly.status == 0)
  }

  /// The same package gives the same JSON bytes; the summary lists each rule once with its count.
  @Test func sameFindingsSameBytes() throws {
    let copy = try ScratchFolder.make().appendingPathComponent("clip")
    #expect(try Command.run("cp", ["-a", try Self.cleanPackage("ts").path, copy.path]).status == 0)
    for name in ["main/segment_00000.ts", "main/segment_00001.ts"] {
      try FileManager.default.removeItem(at: copy.appendingPathComponent(name))
    }
    try edit(copy.appendingPathComponent(Self.media)) { $0.replacingOccurrences(of: "#EXT-X-ENDLIST\n", with: "") }
    let runs = try (0..<2).map { _ in try Command.run(try Fixtures.executable(), ["verify", "--json", copy.path]) }
    #expect(runs[0].stdout == runs[1].stdout)
    #expect(runs[0].status == 1)
    let human = try Command.run(try Fixtures.executable(), ["verify", copy.path]).text
    // Both segments from the media playlist, and the two I-frames (1 s GOPs) of each from the I-frame playlist.
    #expect(human.contains("segment.missing ×6"), "\(human)")
    #expect(human.contains("… and 3 more"))
    #expect(human.contains("playlist.endlist-missing ×1"))
    #expect(human.contains("2 must-fix rules and 0 should-fix rules failed"))
  }

  @Test func unreadablePackageExitsTwo() throws {
    let run = try Command.run(try Fixtures.executable(), ["verify", try ScratchFolder.make().path])
    #expect(run.status == 2)
    #expect(run.stderr.contains("master.m3u8"))
  }

  @Test func missingEXTM3U() throws {
    let result = try broken {
      try edit($0.appendingPathComponent(Self.media)) { String($0.dropFirst("#EXTM3U\n".count)) }
    }
    #expect(result.rules == ["playlist.extm3u-missing"] && result.status == 1)
  }

  @Test func versionTooLow() throws {
    let result = try broken {
      try edit($0.appendingPathComponent(Self.media)) { text in
        text.split(separator: "\n", omittingEmptySubsequences: false)
          .map { $0.hasPrefix("#EXT-X-VERSION:") ? "#EXT-X-VERSION:2" : String($0) }.joined(separator: "\n")
      }
    }
    #expect(result.rules == ["playlist.version-too-low"] && result.status == 1)
  }

  @Test func extinfOverTargetDuration() throws {
    let result = try broken {
      try edit($0.appendingPathComponent(Self.media)) {
        $0.replacingOccurrences(of: "#EXT-X-TARGETDURATION:2\n", with: "#EXT-X-TARGETDURATION:1\n")
      }
    }
    #expect(result.rules == ["playlist.targetduration-exceeded"] && result.status == 1)
  }

  @Test func targetDurationMissing() throws {
    let result = try broken {
      try edit($0.appendingPathComponent(Self.media)) {
        $0.replacingOccurrences(of: "#EXT-X-TARGETDURATION:2\n", with: "")
      }
    }
    #expect(result.rules == ["playlist.targetduration-missing"] && result.status == 1)
  }

  @Test func vodWithoutEndList() throws {
    let result = try broken {
      try edit($0.appendingPathComponent(Self.media)) { $0.replacingOccurrences(of: "#EXT-X-ENDLIST\n", with: "") }
    }
    #expect(result.rules == ["playlist.endlist-missing"] && result.status == 1)
  }

  @Test func mapAfterKey() throws {
    let result = try broken("fmp4") {
      try edit($0.appendingPathComponent(Self.media)) { text in
        var lines = text.components(separatedBy: "\n")
        guard let map = lines.firstIndex(where: { $0.hasPrefix("#EXT-X-MAP:") }) else { return text }
        let line = lines.remove(at: map)
        guard let key = lines.firstIndex(where: { $0.hasPrefix("#EXT-X-KEY:") }) else { return text }
        lines.insert(line, at: key + 1)
        return lines.joined(separator: "\n")
      }
    }
    #expect(result.rules == ["playlist.map-after-key"] && result.status == 1)
  }

  @Test func mediaSequenceAfterTheFirstSegment() throws {
    let result = try broken("ts-clear") {
      try edit($0.appendingPathComponent(Self.media)) {
        $0.replacingOccurrences(of: "#EXT-X-MEDIA-SEQUENCE:0\n", with: "")
          .replacingOccurrences(of: "#EXT-X-ENDLIST\n", with: "#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-ENDLIST\n")
      }
    }
    #expect(result.rules == ["playlist.media-sequence-invalid"] && result.status == 1)
  }

  @Test func unknownKeyMethod() throws {
    let result = try broken {
      try edit($0.appendingPathComponent(Self.media)) {
        $0.replacingOccurrences(of: "METHOD=AES-128", with: "METHOD=AES-192")
      }
    }
    #expect(result.rules == ["key.method-invalid"] && result.status == 1)
  }

  @Test func malformedIV() throws {
    let result = try broken {
      try edit($0.appendingPathComponent(Self.media)) { $0.replacingOccurrences(of: "IV=0x", with: "IV=0xZZ") }
    }
    #expect(result.rules == ["key.iv-malformed"] && result.status == 1)
  }

  @Test func unquotedKeyFormat() throws {
    let result = try broken {
      try edit($0.appendingPathComponent(Self.media)) { text in
        // KEYFORMAT needs version 5 (RFC 8216bis §8): declare it, so only the syntax is wrong.
        text.replacingOccurrences(of: "METHOD=AES-128,", with: "METHOD=AES-128,KEYFORMAT=identity,")
          .split(separator: "\n", omittingEmptySubsequences: false)
          .map { $0.hasPrefix("#EXT-X-VERSION:") ? "#EXT-X-VERSION:5" : String($0) }.joined(separator: "\n")
      }
    }
    #expect(result.rules == ["key.keyformat-malformed"] && result.status == 1)
  }

  @Test func keyFileMissing() throws {
    let result = try broken { try FileManager.default.removeItem(at: try keyFile($0)) }
    #expect(result.rules == ["key.file-missing"] && result.status == 1)
  }

  @Test func keyFileNotSixteenBytes() throws {
    let result = try broken { package in
      let key = try keyFile(package)
      try overwrite(key, with: [UInt8](try Data(contentsOf: key)) + [0])
    }
    #expect(result.rules == ["key.file-size"] && result.status == 1)
  }

  @Test func worldReadableKeyFileIsShouldFix() throws {
    let result = try broken {
      try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: try keyFile($0).path)
    }
    #expect(result.rules == ["key.file-world-readable"])
    #expect(result.status == 0)
  }

  @Test(arguments: ["ts", "fmp4", "ts-sequence-iv"])
  func wrongKey(kind: String) throws {
    let result = try broken(kind) { package in
      let key = try keyFile(package)
      try overwrite(key, with: [UInt8](try Data(contentsOf: key)).map { $0 ^ 0x5A })
    }
    #expect(result.rules == ["segment.aes128-undecryptable"] && result.status == 1)
  }

  @Test func clearSegmentOutOfSync() throws {
    let result = try broken("ts-clear") { package in
      let segment = package.appendingPathComponent("main/segment_00001.ts")
      var bytes = [UInt8](try Data(contentsOf: segment))
      bytes[188] = 0
      try overwrite(segment, with: bytes)
    }
    #expect(result.rules == ["segment.ts-sync-lost"] && result.status == 1)
  }

  /// A key behind a scheme the package cannot resolve: reported once, and the
  /// segments it encrypts as not verified, both should-fix.
  @Test func keyNotInPackage() throws {
    let result = try broken {
      try edit($0.appendingPathComponent(Self.media)) {
        $0.replacingOccurrences(of: #"URI="../keys/"#, with: #"URI="skd://"#)
      }
    }
    #expect(result.rules == ["key.unavailable", "segment.not-verifiable"])
    #expect(result.status == 0)
  }

  /// A segment replaced by a named pipe (which no one writes) is reported
  /// missing; opening it would block verify forever.
  @Test func segmentThatIsANamedPipeIsNotOpened() throws {
    let result = try broken {
      let segment = $0.appendingPathComponent("main/segment_00001.ts")
      try FileManager.default.removeItem(at: segment)
      #expect(mkfifo(segment.path, 0o600) == 0)
    }
    #expect(result.rules == ["segment.missing"] && result.status == 1)
  }

  @Test func segmentMissing() throws {
    let result = try broken {
      try FileManager.default.removeItem(at: $0.appendingPathComponent("main/segment_00001.ts"))
    }
    #expect(result.rules == ["segment.missing"] && result.status == 1)
  }

  @Test func initializationSectionMissing() throws {
    let result = try broken("fmp4") {
      try FileManager.default.removeItem(at: $0.appendingPathComponent("main/init.mp4"))
    }
    #expect(result.rules == ["segment.missing"] && result.status == 1)
  }

  /// An I-frame range moved off its packet boundary, decrypted as RFC 8216bis §6.3.6 has clients do.
  @Test(arguments: ["ts", "fmp4"])
  func iFrameRangeOffItsPicture(kind: String) throws {
    let result = try broken(kind) { package in
      try edit(package.appendingPathComponent("main/iframes.m3u8")) { text in
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("#EXT-X-BYTERANGE:") }),
          let length = line.dropFirst("#EXT-X-BYTERANGE:".count).split(separator: "@").first
        else { return text }
        return text.replacingOccurrences(of: String(line) + "\n", with: "#EXT-X-BYTERANGE:\(length)@100\n")
      }
    }
    #expect(result.rules == ["iframe.range-invalid"] && result.status == 1)
  }

  @Test func truncatedSegment() throws {
    let result = try broken { package in
      let segment = package.appendingPathComponent("main/segment_00001.ts")
      try overwrite(segment, with: [UInt8](try Data(contentsOf: segment).dropLast(100)))
    }
    #expect(result.rules == ["segment.aes128-length"] && result.status == 1)
  }

  @Test func bandwidthBelowPeak() throws {
    let result = try broken {
      try scaleVariantAttribute("BANDWIDTH", by: 0.5, in: $0.appendingPathComponent("master.m3u8"))
    }
    #expect(result.rules == ["multivariant.bandwidth-below-peak"] && result.status == 1)
  }

  @Test func averageBandwidthOff() throws {
    let result = try broken {
      try scaleVariantAttribute("AVERAGE-BANDWIDTH", by: 1.5, in: $0.appendingPathComponent("master.m3u8"))
    }
    #expect(result.rules == ["multivariant.average-bandwidth-off"] && result.status == 1)
  }

  /// An I-frame variant's BANDWIDTH is the peak of its I-frames' byte ranges (RFC 8216bis §4.4.6.3, §4.1).
  @Test(arguments: [("BANDWIDTH", 0.5), ("AVERAGE-BANDWIDTH", 1.5)])
  func iFrameBandwidthOff(attribute: String, factor: Double) throws {
    let result = try broken {
      try scaleVariantAttribute(
        attribute, by: factor, in: $0.appendingPathComponent("master.m3u8"), tag: "#EXT-X-I-FRAME-STREAM-INF:")
    }
    #expect(result.rules == ["multivariant.iframe-bandwidth-off"] && result.status == 1)
  }

  @Test func unresolvedAudioGroup() throws {
    let result = try broken {
      try edit($0.appendingPathComponent("master.m3u8")) {
        $0.replacingOccurrences(of: "FRAME-RATE=25.000\n", with: "FRAME-RATE=25.000,AUDIO=\"missing\"\n")
      }
    }
    #expect(result.rules == ["multivariant.group-unresolved"] && result.status == 1)
  }

  @Test func sessionKeyDisagreesWithMediaKeys() throws {
    let result = try broken {
      try edit($0.appendingPathComponent("master.m3u8")) {
        // SAMPLE-AES needs version 5 (RFC 8216bis §8): declare it, so only the disagreement is wrong.
        $0.replacingOccurrences(of: "#EXT-X-SESSION-KEY:METHOD=AES-128,", with: "#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,")
          .replacingOccurrences(of: "#EXTM3U\n", with: "#EXTM3U\n#EXT-X-VERSION:5\n")
      }
    }
    #expect(result.rules == ["multivariant.session-key-mismatch"] && result.status == 1)
  }

  @Test func sessionKeyRepeated() throws {
    let result = try broken {
      try edit($0.appendingPathComponent("master.m3u8")) { text in
        text.split(separator: "\n", omittingEmptySubsequences: false)
          .flatMap { $0.hasPrefix("#EXT-X-SESSION-KEY:") ? [String($0), String($0)] : [String($0)] }.joined(
            separator: "\n")
      }
    }
    #expect(result.rules == ["multivariant.session-key-repeated"] && result.status == 1)
  }

  @Test func defaultRenditionNotAutoselect() throws {
    let result = try broken("ts-audio-group") {
      try edit($0.appendingPathComponent("master.m3u8")) {
        $0.replacingOccurrences(of: "AUTOSELECT=YES", with: "AUTOSELECT=NO")
      }
    }
    #expect(result.rules == ["rendition.default-not-autoselect"] && result.status == 1)
  }

  @Test func twoDefaultsInOneGroup() throws {
    let result = try broken("ts-audio-group") {
      try repeatRendition(in: $0.appendingPathComponent("master.m3u8")) {
        $0.replacingOccurrences(of: #"NAME="English""#, with: #"NAME="Second""#)
      }
    }
    #expect(result.rules == ["rendition.default-repeated"] && result.status == 1)
  }

  @Test func twoRenditionsWithOneName() throws {
    let result = try broken("ts-audio-group") {
      try repeatRendition(in: $0.appendingPathComponent("master.m3u8")) {
        $0.replacingOccurrences(of: "DEFAULT=YES", with: "DEFAULT=NO")
      }
    }
    #expect(result.rules == ["rendition.name-repeated"] && result.status == 1)
  }

  @Test func audioRenditionSegmentMissing() throws {
    let result = try broken("ts-audio-group") { package in
      let folder = package.appendingPathComponent("audio")
      let rendition = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first)
      try FileManager.default.removeItem(at: folder.appendingPathComponent("\(rendition)/segment_00001.ts"))
    }
    #expect(result.rules == ["segment.missing"] && result.status == 1)
  }

  /// BANDWIDTH counts the audio rendition a client plays with the video
  /// (RFC 8216bis §4.4.6.2): lowered by less than the audio's rate, it fails.
  @Test func bandwidthWithoutTheAudioRendition() throws {
    let result = try broken("ts-audio-group") {
      try scaleVariantAttribute("BANDWIDTH", by: 0.85, in: $0.appendingPathComponent("master.m3u8"))
    }
    #expect(result.rules == ["multivariant.bandwidth-below-peak"] && result.status == 1)
  }

  /// Segment 1 re-encrypted under segment 0's IV, and both playlists say so.
  @Test func reusedKeyAndIV() throws {
    let result = try broken { package in
      let playlist = package.appendingPathComponent(Self.media)
      let ivs = try writtenIVs(playlist)
      try #require(ivs.count >= 2 && ivs[0] != ivs[1])
      let key = [UInt8](try Data(contentsOf: try keyFile(package)))
      let segment = package.appendingPathComponent("main/segment_00001.ts")
      let cipher = try AES128CBC()
      let clear = try cipher.decryptPadded(
        [UInt8](try Data(contentsOf: segment)), key: key, iv: try #require(Hex.decode(String(ivs[1].dropFirst(2)))))
      try overwrite(
        segment,
        with: try cipher.encryptPadded(clear, key: key, iv: try #require(Hex.decode(String(ivs[0].dropFirst(2))))))
      for name in [Self.media, "main/iframes.m3u8"] {
        try edit(package.appendingPathComponent(name)) { $0.replacingOccurrences(of: ivs[1], with: ivs[0]) }
      }
    }
    #expect(result.rules == ["key.iv-reused"] && result.status == 0)
  }
}
