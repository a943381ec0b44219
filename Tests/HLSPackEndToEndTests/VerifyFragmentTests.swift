import Foundation
import HLSPackTestSupport
import Testing

/// The rules on fMP4 bitstreams, `cbcs` decryption among them: each broken
/// copy is flagged by exactly the rule meant for it.
extension VerifyTests {
  @Test func cbcsPackagePassesClean() throws {
    let result = try verify(try Self.cleanPackage("fmp4-cbcs"))
    #expect(result.rules == [] && result.status == 0)
  }

  /// cbcs leaves slice headers clear: the decoder, reading the decrypted slice data, shows a wrong key.
  @Test func wrongCBCSKey() throws {
    let result = try broken("fmp4-cbcs") { package in
      let key = try keyFile(package)
      try overwrite(key, with: [UInt8](try Data(contentsOf: key)).map { $0 ^ 0x5A })
    }
    #expect(result.rules == ["segment.cbcs-undecryptable"] && result.status == 1)
  }

  /// The first sample's first subsample protects 16 bytes more, starting
  /// inside the clear headers; its sizes still add up to the sample's.
  @Test func cbcsSubsampleMapWrong() throws {
    let result = try broken("fmp4-cbcs") { package in
      let segment = package.appendingPathComponent("main/segment_00000.m4s")
      var bytes = [UInt8](try Data(contentsOf: segment))
      let senc = try #require(boxPath(bytes, ["moof", "traf", "senc"]).last)
      // size, type, version and flags, sample_count, then record 0: subsample_count, clear (16), protected (32).
      let clear = senc.lowerBound + 18
      let clearBytes = Int(bytes[clear]) << 8 | Int(bytes[clear + 1])
      try #require(clearBytes >= 16)
      bytes[clear] = UInt8((clearBytes - 16) >> 8)
      bytes[clear + 1] = UInt8((clearBytes - 16) & 0xFF)
      let protected = bytes[clear + 2..<clear + 6].reduce(0) { $0 << 8 | Int($1) } + 16
      for i in 0..<4 { bytes[clear + 2 + i] = UInt8(protected >> (24 - 8 * i) & 0xFF) }
      try overwrite(segment, with: bytes)
    }
    #expect(result.rules == ["segment.cbcs-subsample-map"] && result.status == 1)
  }

  /// Segment 1's tfdt moved on by 100000 ticks in every track.
  @Test func tfdtGapBetweenSegments() throws {
    let result = try broken("fmp4-cbcs") { package in
      let segment = package.appendingPathComponent("main/segment_00001.m4s")
      var bytes = [UInt8](try Data(contentsOf: segment))
      var at = 0
      var changed = 0
      while let found = bytes[at...].firstRange(of: Array("tfdt".utf8)) {
        // tfdt version 1: a 64-bit baseMediaDecodeTime after version and flags.
        let field = found.upperBound + 4
        let wide = bytes[found.upperBound] == 1
        let width = wide ? 8 : 4
        let value = bytes[field..<field + width].reduce(0) { $0 << 8 | Int($1) } + 100_000
        for i in 0..<width { bytes[field + i] = UInt8(value >> (8 * (width - 1 - i)) & 0xFF) }
        at = field + width
        changed += 1
      }
      try #require(changed > 0)
      try overwrite(segment, with: bytes)
    }
    #expect(result.rules == ["segment.timestamp-gap"] && result.status == 1)
  }

  /// The video track's sample entry written twice in its stsd.
  @Test func twoSampleDescriptions() throws {
    let result = try broken("fmp4-cbcs") { package in
      let initSection = package.appendingPathComponent("main/init.mp4")
      var bytes = [UInt8](try Data(contentsOf: initSection))
      let path = boxPath(bytes, ["moov", "trak", "mdia", "minf", "stbl", "stsd"])
      let stsd = try #require(path.last)
      let entryStart = stsd.lowerBound + 16
      let entrySize = bytes[entryStart..<entryStart + 4].reduce(0) { $0 << 8 | Int($1) }
      bytes.insert(contentsOf: bytes[entryStart..<entryStart + entrySize], at: entryStart + entrySize)
      bytes[stsd.lowerBound + 15] += 1
      grow(&bytes, boxesAt: path.map(\.lowerBound), by: entrySize)
      try overwrite(initSection, with: bytes)
    }
    #expect(result.rules == ["segment.init-sample-descriptions"] && result.status == 1)
  }
}
