import Foundation
import Testing

@testable import HLSPackCore

@Suite struct AssetReportTests {
  static let report = AssetReport(
    version: "1.2.3", input: "/media/in.mp4", asset: "in", container: "ts", encryption: "aes-128", ivMode: "random",
    targetDuration: 6,
    keys: [AssetReport.Key(keyID: "00112233445566778899aabbccddeeff", uri: "../keys/k.key", file: "keys/k.key")],
    renditions: [
      AssetReport.Rendition(
        name: "360p", playlist: "360p/index.m3u8", bandwidth: 900_000, averageBandwidth: 800_000,
        codecs: "avc1.4d401e,mp4a.40.2", resolution: "640x360", frameRate: 25, videoFrames: 150,
        segments: [
          AssetReport.Segment(
            uri: "360p/segment-0.ts", duration: 6, bytes: 600_016, sha256: String(repeating: "a", count: 64),
            iv: "0x000102030405060708090A0B0C0D0E0F", keyID: "00112233445566778899aabbccddeeff")
        ])
    ],
    timings: AssetReport.Timings(sourceSeconds: 6, wallSeconds: 2, speed: 3))

  /// Encoded the way the encoder writes report.json, then read back as plain JSON.
  static func encoded() throws -> [String: Any] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(report)
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test func keysAreSnakeCase() throws {
    let root = try Self.encoded()
    #expect(
      Set(root.keys) == [
        "tool", "input", "asset", "container", "encryption", "iv_mode", "target_duration", "keys", "renditions",
        "timings",
      ])
    let tool = try #require(root["tool"] as? [String: Any])
    #expect(tool["name"] as? String == "hlspack")
    #expect(tool["version"] as? String == "1.2.3")

    let key = try #require((root["keys"] as? [[String: Any]])?.first)
    #expect(Set(key.keys) == ["key_id", "uri", "file"])

    let rendition = try #require((root["renditions"] as? [[String: Any]])?.first)
    #expect(
      Set(rendition.keys) == [
        "name", "playlist", "bandwidth", "average_bandwidth", "codecs", "resolution", "frame_rate", "video_frames",
        "segments",
      ])
    let segment = try #require((rendition["segments"] as? [[String: Any]])?.first)
    #expect(Set(segment.keys) == ["uri", "duration", "bytes", "sha256", "iv", "key_id"])

    let timings = try #require(root["timings"] as? [String: Any])
    #expect(Set(timings.keys) == ["source_seconds", "wall_seconds", "speed"])
  }

  /// The report is published next to the segments: it must have no place to put key bytes.
  @Test func keyEntryHasNoKeyBytes() {
    let fields = Mirror(reflecting: Self.report.keys[0]).children.compactMap(\.label)
    #expect(fields.sorted() == ["file", "keyID", "uri"])
  }

  @Test func clearAssetOmitsIVModeAndSegmentKeys() throws {
    var clear = Self.report
    clear.ivMode = nil
    clear.keys = []
    clear.renditions[0].segments[0].iv = nil
    clear.renditions[0].segments[0].keyID = nil
    let data = try JSONEncoder().encode(clear)
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(root["iv_mode"] == nil)
    let segment = try #require(
      ((root["renditions"] as? [[String: Any]])?.first?["segments"] as? [[String: Any]])?.first)
    #expect(segment["iv"] == nil && segment["key_id"] == nil)
  }

  @Test func roundTrip() throws {
    let data = try JSONEncoder().encode(Self.report)
    #expect(try JSONDecoder().decode(AssetReport.self, from: data) == Self.report)
  }
}
