import Foundation
import Testing

@testable import HLSPackCore
@testable import HLSPackVerify

/// Bit rates, (key, IV) reuse, segment byte checks and the report's forms.
@Suite struct VerifyMeasureTests {
  @Test func bandwidthChecks() {
    let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=12000,AVERAGE-BANDWIDTH=8000\nv.m3u8\n"
    let variant = VerifiedMultivariantPlaylist(PlaylistText(Array(master.utf8))).variants[0]
    func ids(_ peak: Double, _ average: Double) -> [String] {
      BandwidthRules.check(variant, measuredPeak: peak, measuredAverage: average, file: "master.m3u8").map(\.rule.id)
    }
    #expect(ids(12000, 8000) == [])
    #expect(ids(12001, 8000) == [])  // within EXTINF rounding
    #expect(ids(12100, 8000) == ["multivariant.bandwidth-below-peak"])
    #expect(ids(12000, 7300) == [])
    #expect(ids(12000, 7200) == ["multivariant.average-bandwidth-off"])
    #expect(ids(12000, 8900) == ["multivariant.average-bandwidth-off"])
    // Declared rather than measured: more than 10% above the peak.
    #expect(ids(10910, 8000) == [])
    #expect(ids(10900, 8000) == ["multivariant.bandwidth-above-peak"])
    // A peak over twice the average (and AVERAGE-BANDWIDTH off with it).
    #expect(ids(12000, 5900) == ["multivariant.peak-over-twice-average", "multivariant.average-bandwidth-off"])
  }

  @Test func variantAttributesAppleRequires() {
    let master = """
      #EXTM3U
      #EXT-X-STREAM-INF:BANDWIDTH=1,AVERAGE-BANDWIDTH=1,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=25.000
      full.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="avc1.64001f, mp4a.40.2",RESOLUTION=1280x720
      declared.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=1,AVERAGE-BANDWIDTH=1,CODECS="mp4a.40.2"
      audio.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=1,AVERAGE-BANDWIDTH=1,RESOLUTION=640x360
      guessed.m3u8
      #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1,CODECS="avc1.64001f",RESOLUTION=1280x720,URI="i.m3u8"

      """
    let playlist = VerifiedMultivariantPlaylist(PlaylistText(Array(master.utf8)))
    let findings = VariantAttributeRules.check(playlist, file: "master.m3u8")
    #expect(findings.map(\.rule.id) == ["multivariant.attribute-missing", "multivariant.attribute-missing"])
    #expect(findings.map(\.segment) == ["declared.m3u8", "guessed.m3u8"])
    #expect(findings.map(\.detail) == ["no AVERAGE-BANDWIDTH, FRAME-RATE", "no CODECS, FRAME-RATE"])
  }

  @Test func keyIVPairsAreUniquePerResource() {
    let iv = [UInt8](repeating: 7, count: 16)
    func use(_ key: String, _ resource: String, line: Int) -> KeyRules.Use {
      KeyRules.Use(key: key, iv: iv, resource: resource, file: "v/index.m3u8", line: line, segment: resource)
    }
    // The I-frame range of a segment is the same resource: not a reuse.
    #expect(
      KeyRules.uniquePairs([use("k", "v/a.ts", line: 1), use("k", "v/a.ts", line: 9), use("j", "v/b.ts", line: 2)])
        .isEmpty)
    let findings = KeyRules.uniquePairs([
      use("k", "v/a.ts", line: 1), use("k", "v/b.ts", line: 3), use("k", "v/b.ts", line: 5),
    ])
    #expect(findings.map(\.rule.id) == ["key.iv-reused"])
    #expect(findings.map(\.line) == [3])
    // One file per rendition: two media ranges are two segments; an I-frame range (no offset) is not a third.
    func range(_ offset: Int?, line: Int) -> KeyRules.Use {
      KeyRules.Use(
        key: "k", iv: iv, resource: "v/media.ts", file: "v/index.m3u8", line: line, segment: "v/media.ts",
        offset: offset)
    }
    #expect(KeyRules.uniquePairs([range(0, line: 1), range(nil, line: 2), range(0, line: 3)]).isEmpty)
    let ranges = KeyRules.uniquePairs([range(0, line: 1), range(nil, line: 2), range(1504, line: 3)])
    #expect(ranges.map(\.line) == [3])
    #expect(ranges.first?.detail.hasSuffix("also encrypts v/media.ts (its range at byte 0)") == true, "\(ranges)")
  }

  @Test func transportStreamPackets() {
    var packets = [UInt8](repeating: 0, count: 376)
    packets[0] = 0x47
    packets[188] = 0x47
    #expect(SegmentBytesRules.transportStreamProblem(packets) == nil)
    #expect(SegmentBytesRules.transportStreamProblem(Array(packets.prefix(300))) != nil)
    packets[188] = 0x48
    #expect(SegmentBytesRules.transportStreamProblem(packets) == "byte 188 is not the 0x47 sync byte")
  }

  /// Pieces of every size give the answer the whole array gives.
  @Test func scannersAcceptAnyPieces() {
    var packets = [UInt8](repeating: 0, count: 188 * 3)
    for start in stride(from: 0, to: packets.count, by: 188) { packets[start] = 0x47 }
    let moof: [UInt8] = [0, 0, 0, 8] + Array("moof".utf8)
    let large: [UInt8] = [0, 0, 0, 1] + Array("mdat".utf8) + [0, 0, 0, 0, 0, 0, 0, 20] + [1, 2, 3, 4]
    for piece in [1, 5, 7, 16, 187, 188, 189, 1000] {
      func pieces<S: ClearBytesScanner>(_ bytes: [UInt8], _ scanner: S) -> String? {
        var scanner = scanner
        for start in stride(from: 0, to: bytes.count, by: piece) {
          scanner.consume(bytes[start..<min(start + piece, bytes.count)])
        }
        return scanner.finish()
      }
      #expect(pieces(packets, TransportStreamScanner()) == nil)
      var broken = packets
      broken[376] = 0
      #expect(pieces(broken, TransportStreamScanner()) == "byte 376 is not the 0x47 sync byte")
      #expect(pieces(moof + large, FragmentScanner()) == nil)
      #expect(pieces(moof + large.dropLast(), FragmentScanner()) == "box \"mdat\" at offset 8 overruns the segment")
      #expect(pieces(moof + large + [0, 0], FragmentScanner()) == "2 stray bytes at offset 28")
    }
  }

  @Test func containerFromMapOrExtension() {
    #expect(SegmentContainer.of(uri: "a/segment_1.ts?token=x", hasMap: false) == .transportStream)
    #expect(SegmentContainer.of(uri: "segment_1.ts", hasMap: true) == .fragmentedMP4)
    #expect(SegmentContainer.of(uri: "s/segment_1.vtt", hasMap: false) == .webVTT)
    #expect(SegmentContainer.of(uri: "v1.2/segment", hasMap: false) == .other)
    #expect(SegmentBytesRules.scan(Array("\u{FEFF}WEBVTT\n".utf8), WebVTTScanner()) == nil)
    #expect(SegmentBytesRules.scan(Array("WEBVT".utf8), WebVTTScanner()) != nil)
  }

  @Test func fragmentBoxes() {
    let moof: [UInt8] = [0, 0, 0, 8] + Array("moof".utf8)
    let mdat: [UInt8] = [0, 0, 0, 10] + Array("mdat".utf8) + [1, 2]
    #expect(SegmentBytesRules.fragmentProblem(moof + mdat) == nil)
    #expect(SegmentBytesRules.fragmentProblem(mdat) != nil)
    #expect(SegmentBytesRules.fragmentProblem(moof + mdat.dropLast()) != nil)
  }

  @Test func reportSortsMustFirstAndShowsThreePlaces() throws {
    let findings =
      (1...5).map { Finding(VerifyRules.segmentMissing, file: "v/index.m3u8", line: 10 - $0, detail: "no file") }
      + [Finding(VerifyRules.keyFileWorldReadable, file: "v/index.m3u8", line: 1, detail: "mode 644")]
      + [Finding(VerifyRules.extm3uMissing, file: "a.m3u8", line: 1, detail: "first line")]
    let report = VerifyReport(findings: findings.reversed(), playlists: 2, segments: 5, bytes: 100)
    #expect(report.hasMustFix)
    #expect(report.findings.map(\.rule.id).first == "playlist.extm3u-missing")
    #expect(report.findings.last?.rule.id == "key.file-world-readable")
    let text = report.humanText
    #expect(text.contains("segment.missing ×5"))
    #expect(text.contains("v/index.m3u8:5: no file"))
    #expect(!text.contains("v/index.m3u8:8:"))
    #expect(text.contains("… and 2 more"))
    #expect(try #require(text.range(of: "Must fix:")).lowerBound < #require(text.range(of: "Should fix:")).lowerBound)
    let shuffled = VerifyReport(findings: findings.shuffled(), playlists: 2, segments: 5, bytes: 100)
    #expect(try shuffled.json() == report.json())
  }
}

/// `verify --sample` and `verify --rules`.
@Suite struct VerifyScopeTests {
  @Test func sampleSpreadsEvenlyWithTheFirstAndLast() {
    #expect(SegmentSample.indices(total: 10, count: nil) == Set(0..<10))
    #expect(SegmentSample.indices(total: 10, count: 10) == Set(0..<10))
    #expect(SegmentSample.indices(total: 3, count: 5) == [0, 1, 2])
    #expect(SegmentSample.indices(total: 10, count: 1) == [0])
    #expect(SegmentSample.indices(total: 10, count: 2) == [0, 9])
    #expect(SegmentSample.indices(total: 10, count: 3) == [0, 5, 9])
    #expect(SegmentSample.indices(total: 100, count: 4) == [0, 33, 66, 99])
    #expect(SegmentSample.indices(total: 0, count: 3) == [])
  }

  @Test func rfcLeavesOutRulesOnlyAppleStates() {
    func rule(_ origin: VerifyRule.Origin) -> VerifyRule {
      VerifyRule(id: "x", severity: .should, source: "", origin: origin, owner: .packager, summary: "")
    }
    let apple = rule(.apple)
    let appleFirst = VerifyRules.variantAttributeMissing
    let rfcFirst = rule(.rfc8216bis)
    let iso = rule(.iso)
    let own = rule(.hlspack)
    #expect([apple, appleFirst, rfcFirst, iso, own].allSatisfy(VerifyRuleSet.apple.includes))
    #expect(!VerifyRuleSet.rfc.includes(apple) && !VerifyRuleSet.rfc.includes(appleFirst))
    #expect([rfcFirst, iso, own].allSatisfy(VerifyRuleSet.rfc.includes))
    #expect(!VerifyRuleSet.rfc.includes(VerifyRules.variantAttributeMissing))
    #expect(VerifyRuleSet.rfc.includes(VerifyRules.averageBandwidthOff))
  }
}
