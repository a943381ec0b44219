import Foundation
import HLSPackTestSupport
import Testing

/// The rules on segments' bitstreams: each broken copy is flagged by exactly
/// the rule meant for it (the clean packages pass, `cleanPackagePasses`).
extension VerifyTests {
  @Test func sampleAESPackagePassesClean() throws {
    let result = try verify(try Self.cleanPackage("ts-sample-aes"))
    #expect(result.rules == [] && result.status == 0)
  }

  /// The slice headers stay clear, so only decoding the decrypted picture
  /// (and the AC-3 CRC) shows a wrong SAMPLE-AES key.
  @Test func wrongSampleAESKey() throws {
    let result = try broken("ts-sample-aes") { package in
      let key = try keyFile(package)
      try overwrite(key, with: [UInt8](try Data(contentsOf: key)).map { $0 ^ 0x5A })
    }
    #expect(result.rules == ["segment.sample-aes-undecryptable"] && result.status == 1)
  }

  /// The first access unit's IDR slices relabelled as non-IDR slices (nal_unit_type 5 → 1).
  @Test func segmentNotStartingWithAnIDR() throws {
    let result = try broken("ts-clear") { package in
      let segment = package.appendingPathComponent("main/segment_00001.ts")
      var bytes = [UInt8](try Data(contentsOf: segment))
      var changed = 0
      // Only the first access unit's: up to the second access unit delimiter (nal_unit_type 9).
      let delimiters = (0..<(bytes.count - 4)).lazy.filter { bytes[$0..<$0 + 4].elementsEqual([0, 0, 1, 9]) }
      let firstUnitEnd = delimiters.dropFirst().first ?? bytes.count - 4
      for i in 0..<firstUnitEnd where bytes[i..<i + 4].elementsEqual([0, 0, 1, 0x65]) {
        bytes[i + 3] = 0x41
        changed += 1
      }
      #expect(changed > 0)
      try overwrite(segment, with: bytes)
      // The I-frame playlist's entry for that picture would fail too (iframe.not-one-picture): drop it.
      try edit(package.appendingPathComponent("main/iframes.m3u8")) { text in
        guard
          let entry = text.range(
            of: #"#EXTINF:[0-9.]+,\n#EXT-X-BYTERANGE:[0-9]+@[0-9]+\nsegment_00001\.ts\n"#, options: .regularExpression)
        else { return text }
        return text.replacingCharacters(in: entry, with: "")
      }
    }
    #expect(result.rules == ["segment.no-keyframe-start"] && result.status == 1)
  }

  @Test func continuityCounterSkips() throws {
    let result = try broken("ts-clear") { package in
      let segment = package.appendingPathComponent("main/segment_00000.ts")
      var bytes = [UInt8](try Data(contentsOf: segment))
      // Packet 20 is well inside the first PES packet of video.
      let header = 20 * 188 + 3
      bytes[header] = bytes[header] & 0xF0 | (bytes[header] &+ 5) & 0x0F
      try overwrite(segment, with: bytes)
    }
    #expect(result.rules == ["segment.ts-continuity"] && result.status == 1)
  }

  /// Segment 1's timestamps moved 1 s later, with no EXT-X-DISCONTINUITY.
  @Test func timestampGapBetweenSegments() throws {
    let result = try broken("ts-clear") { package in
      try shiftTimestamps(package.appendingPathComponent("main/segment_00001.ts"), by: 90_000)
    }
    #expect(result.rules == ["segment.timestamp-gap"] && result.status == 1)
  }

  /// Every timestamp moved so that they pass 2^33 (26.5 hours at 90 kHz) and
  /// start again from 0 half a second into segment 1, as a long-running
  /// encoder's do: durations and continuity hold across the wrap.
  @Test func timestampsWrappingPast33BitsPassClean() throws {
    let result = try broken("ts-clear") { package in
      let segments = try FileManager.default.contentsOfDirectory(atPath: package.appendingPathComponent("main").path)
        .filter { $0.hasSuffix(".ts") }.map { package.appendingPathComponent("main/\($0)") }
      let wrapAt = try firstTimestamp(package.appendingPathComponent("main/segment_00001.ts")) + 45_000
      for segment in segments { try shiftTimestamps(segment, by: (1 << 33) - wrapAt) }
    }
    #expect(result.rules == [] && result.status == 0)
  }

  @Test func extinfOffTheMediaDuration() throws {
    let result = try broken("ts-clear") {
      try edit($0.appendingPathComponent(Self.media)) {
        $0.replacingOccurrences(of: "#EXTINF:2.000000,\nsegment_00000.ts", with: "#EXTINF:2.200000,\nsegment_00000.ts")
      }
    }
    #expect(result.rules == ["segment.extinf-off"] && result.status == 1)
  }

  @Test func codecsLevelWrong() throws {
    let result = try broken("ts-clear") {
      try edit($0.appendingPathComponent("master.m3u8")) { text in
        guard let range = text.range(of: #"avc1\.[0-9a-fA-F]{6}"#, options: .regularExpression) else { return text }
        let level = text[range].suffix(2) == "33" ? "34" : "33"
        return text.replacingCharacters(in: range, with: text[range].dropLast(2) + level)
      }
    }
    #expect(result.rules == ["variant.codecs-mismatch"] && result.status == 1)
  }

  @Test func resolutionWrong() throws {
    let result = try broken("ts-clear") {
      try edit($0.appendingPathComponent("master.m3u8")) {
        $0.replacingOccurrences(of: "RESOLUTION=640x360,FRAME", with: "RESOLUTION=640x480,FRAME")
      }
    }
    #expect(result.rules == ["variant.resolution-mismatch"] && result.status == 1)
  }

  @Test func frameRateWrong() throws {
    let result = try broken("ts-clear") {
      try edit($0.appendingPathComponent("master.m3u8")) {
        $0.replacingOccurrences(of: "FRAME-RATE=25.000", with: "FRAME-RATE=30.000")
      }
    }
    #expect(result.rules == ["variant.frame-rate-mismatch"] && result.status == 1)
  }

  /// Every segment of the second rung moved 1 s later: each rung is
  /// continuous on its own, but their segments no longer start together.
  @Test func variantsMisaligned() throws {
    let result = try broken("ts-sample-aes") { package in
      for name in ["high/segment_00000.ts", "high/segment_00001.ts"] {
        try shiftTimestamps(package.appendingPathComponent(name), by: 90_000)
      }
    }
    #expect(result.rules == ["variant.segments-misaligned"] && result.status == 1)
  }

  @Test func discontinuityInOneRenditionOnly() throws {
    let result = try broken("ts-sample-aes") {
      try edit($0.appendingPathComponent("high/index.m3u8")) {
        $0.replacingOccurrences(
          of: "#EXTINF:2.000000,\nsegment_00001.ts", with: "#EXT-X-DISCONTINUITY\n#EXTINF:2.000000,\nsegment_00001.ts")
      }
    }
    #expect(result.rules == ["playlist.discontinuity-mismatch"] && result.status == 1)
  }
}

extension VerifyTests {
  /// The first I-frame entry stretched over the next picture's entry: its
  /// range still decrypts to whole packets, but holds more than one picture.
  @Test(arguments: ["ts", "ts-clear"])
  func iFrameRangeOverTwoPictures(kind: String) throws {
    let result = try broken(kind) { package in
      try edit(package.appendingPathComponent("main/iframes.m3u8")) { text in
        let ranges = text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-BYTERANGE:") }
        guard ranges.count >= 2 else { return text }
        let parts = ranges.prefix(2).map {
          $0.dropFirst("#EXT-X-BYTERANGE:".count).split(separator: "@").compactMap { Int($0) }
        }
        guard parts.allSatisfy({ $0.count == 2 }), parts[1][1] > parts[0][1] else { return text }
        let length = parts[1][1] + parts[1][0] - parts[0][1]
        return text.replacingOccurrences(
          of: String(ranges[0]) + "\n", with: "#EXT-X-BYTERANGE:\(length)@\(parts[0][1])\n")
      }
    }
    // The wider range also lifts the I-frame playlist's peak above the BANDWIDTH declared for it.
    #expect(result.rules == ["iframe.not-one-picture", "multivariant.iframe-bandwidth-off"] && result.status == 1)
  }

  /// The packager's first I-frame entry starts after the segment's PAT, PMT
  /// and SDT, as RFC 8216bis §4.4.3.6 asks and Shaka Packager writes: a client
  /// reads the tables from the start of the segment, and so does verify. The
  /// entry widened to include them (as hlspack wrote it before) is read too.
  @Test func iFrameRangeWithOrWithoutTheProgramTablesPasses() throws {
    let result = try broken("ts-clear") { package in
      let segment = try Data(contentsOf: package.appendingPathComponent("main/segment_00000.ts"))
      // The packets before the first one that opens a PES: the PAT, PMT and any SDT.
      let tables = try #require(
        stride(from: 0, to: segment.count - 188, by: 188).first { at in
          let header = at + 4 + (segment[at + 3] & 0x20 != 0 ? 1 + Int(segment[at + 4]) : 0)
          return segment[at + 1] & 0x40 != 0 && segment[header..<header + 3].elementsEqual([0, 0, 1])
        })
      try #require(tables > 0)
      // The edit changes nothing (and fails) unless the entry starts right after the tables.
      try edit(package.appendingPathComponent("main/iframes.m3u8")) { text in
        guard let range = text.firstMatch(of: #/#EXT-X-BYTERANGE:([0-9]+)@([0-9]+)\nsegment_00000\.ts/#),
          let length = Int(range.1), Int(range.2) == tables
        else { return text }
        return text.replacingCharacters(
          in: range.range, with: "#EXT-X-BYTERANGE:\(length + tables)@0\nsegment_00000.ts")
      }
    }
    #expect(result.rules == [] && result.status == 0)
  }

  /// SAMPLE-AES leaves the NAL unit headers clear, so an I-frame entry
  /// stretched over its whole segment is found to hold many pictures with no key.
  @Test func sampleAESIFrameRangeOverTheSegment() throws {
    let result = try broken("ts-sample-aes") { package in
      let segment = package.appendingPathComponent("main/segment_00000.ts")
      let size = try #require(try FileManager.default.attributesOfItem(atPath: segment.path)[.size] as? Int)
      try edit(package.appendingPathComponent("main/iframes.m3u8")) { text in
        guard let range = text.split(separator: "\n").first(where: { $0.hasPrefix("#EXT-X-BYTERANGE:") }) else {
          return text
        }
        return text.replacingOccurrences(of: String(range) + "\n", with: "#EXT-X-BYTERANGE:\(size)@0\n")
      }
    }
    // The wider range also lifts the I-frame playlist's peak above the BANDWIDTH declared for it.
    #expect(result.rules == ["iframe.not-one-picture", "multivariant.iframe-bandwidth-off"] && result.status == 1)
  }
}

extension VerifyTests {
  @Test func sampleAESWithAC3PassesClean() throws {
    let result = try verify(try Self.cleanPackage("ts-sample-aes-ac3"))
    #expect(result.rules == [] && result.status == 0)
  }

  /// One byte of the first AC-3 syncframe's encrypted blocks changed: the
  /// video still decodes, and only the frame's CRC shows the damage.
  @Test func sampleAESAC3FrameCorrupt() throws {
    let result = try broken("ts-sample-aes-ac3") { package in
      let segment = package.appendingPathComponent("main/segment_00000.ts")
      var bytes = [UInt8](try Data(contentsOf: segment))
      let stream = try TransportStream(bytes)
      let audio = try #require(stream.elementaryStreams.first { $0.type == 0xC1 }?.pid)
      let first = try #require(stream.packets.first { $0.pid == audio && $0.payloadStart })
      let payload = first.payload.startIndex
      // After the PES header, 16 clear leader bytes, then encrypted blocks.
      let frame = payload + 9 + Int(bytes[payload + 8])
      try #require(bytes[frame] == 0x0B && bytes[frame + 1] == 0x77 && frame + 48 < first.payload.endIndex)
      bytes[frame + 40] ^= 0xFF
      try overwrite(segment, with: bytes)
    }
    #expect(result.rules == ["segment.sample-aes-undecryptable"] && result.status == 1)
  }
}
