import Foundation
import HLSPackTestSupport
import Testing

/// The variant attributes checked against the decrypted bitstream (HEVC's
/// SPS, the SPS's VUI colour, an fMP4 init's esds) and fMP4 I-frame ranges:
/// each broken copy is flagged by exactly the rule meant for it.
extension VerifyTests {
  @Test func hevcPackagePassesClean() throws {
    let result = try verify(try Self.cleanPackage("fmp4-hevc"))
    #expect(result.rules == [] && result.status == 0)
  }

  /// x265 codes 320×180 as 184 lines and crops 4 in the conformance window:
  /// the coded size is not the picture size.
  @Test func hevcResolutionUncropped() throws {
    let result = try broken("fmp4-hevc") { package in
      try editStreamInf(in: package) { $0.replacingOccurrences(of: "RESOLUTION=320x180", with: "RESOLUTION=320x184") }
    }
    #expect(result.rules == ["variant.resolution-mismatch"] && result.status == 1)
  }

  @Test func hevcFrameRateWrong() throws {
    let result = try broken("fmp4-hevc") { package in
      try editStreamInf(in: package) { $0.replacingOccurrences(of: "FRAME-RATE=25.000", with: "FRAME-RATE=30.000") }
    }
    #expect(result.rules == ["variant.frame-rate-mismatch"] && result.status == 1)
  }

  /// An SDR stream (no colour description in its SPS) declared PQ.
  @Test(arguments: ["ts-clear", "fmp4-hevc"])
  func videoRangeWrong(kind: String) throws {
    let result = try broken(kind) { package in
      try editStreamInf(in: package) { $0 + ",VIDEO-RANGE=PQ" }
    }
    #expect(result.rules == ["variant.video-range-mismatch"] && result.status == 1)
  }

  /// The init's AudioSpecificConfig says HE-AAC (audioObjectType 5), the
  /// CODECS entry AAC-LC (mp4a.40.2).
  @Test func aacObjectTypeNotDeclared() throws {
    let result = try broken("fmp4-cbcs") { package in
      let initSection = package.appendingPathComponent("main/init.mp4")
      var bytes = [UInt8](try Data(contentsOf: initSection))
      let esds = try #require(bytes.firstRange(of: Array("esds".utf8))).upperBound
      var changed = false
      // DecoderSpecificInfo: tag 5, a size (in one byte, or four with continuation bits), audioObjectType 2.
      for tag in esds..<min(esds + 80, bytes.count - 6) where bytes[tag] == 0x05 && !changed {
        var size = tag + 1
        while bytes[size] == 0x80 { size += 1 }
        guard bytes[size] >= 2, bytes[size + 1] >> 3 == 2 else { continue }
        bytes[size + 1] = bytes[size + 1] & 0x07 | 5 << 3
        changed = true
      }
      try #require(changed)
      try overwrite(initSection, with: bytes)
    }
    #expect(result.rules == ["variant.codecs-mismatch"] && result.status == 1)
  }

  /// The first I-frame entry stretched from its moof and first sample over
  /// the segment but its last 16 bytes (AES-128's padding stays out of it):
  /// its range holds every picture of the segment but the last.
  @Test(arguments: ["fmp4", "fmp4-cbcs", "fmp4-hevc"])
  func fragmentIFrameRangeOverTheSegment(kind: String) throws {
    let result = try broken(kind) { package in
      let size = try #require(
        try FileManager.default.attributesOfItem(atPath: package.appendingPathComponent("main/segment_00000.m4s").path)[
          .size] as? Int)
      try edit(package.appendingPathComponent("main/iframes.m3u8")) { text in
        text.replacingOccurrences(
          of: #"#EXT-X-BYTERANGE:[0-9]+@0\nsegment_00000\.m4s"#,
          with: "#EXT-X-BYTERANGE:\(size - 16)@0\nsegment_00000.m4s", options: .regularExpression)
      }
    }
    // The wider range also lifts the I-frame playlist's peak above the BANDWIDTH declared for it.
    #expect(result.rules == ["iframe.not-one-picture", "multivariant.iframe-bandwidth-off"] && result.status == 1)
  }

  /// Changes each EXT-X-STREAM-INF line of the package's master playlist.
  func editStreamInf(in package: URL, _ change: @escaping (String) -> String) throws {
    try edit(package.appendingPathComponent("master.m3u8")) { text in
      text.split(separator: "\n", omittingEmptySubsequences: false)
        .map { $0.hasPrefix("#EXT-X-STREAM-INF:") ? change(String($0)) : String($0) }.joined(separator: "\n")
    }
  }
}
