import Foundation
import HLSPackTestSupport
import Testing

/// HDR10 and HLG HEVC packaged as they are: Main 10 in CODECS, VIDEO-RANGE,
/// the colour description and the HDR10 metadata SEI kept, and pictures that
/// decode to the source's.
extension CopyModeTests {
  /// 2 s of 10-bit HEVC with HDR10's mastering display and content light level (x265 `hdr10`).
  static let hdr10Arguments: [String] =
    Array(tenBitHEVC(transfer: "smpte2084").dropLast()) + [
      "keyint=25:min-keyint=25:scenecut=0:open-gop=0:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc"
        + ":master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1)"
        + ":max-cll=1000,400:hdr10=1:log-level=error"
    ]

  @Test(arguments: [("hdr10.mp4", "PQ", "smpte2084"), ("hlg.mp4", "HLG", "arib-std-b67")])
  func hdrIsPackagedAsMain10WithItsRangeAndMetadata(name: String, range: String, transfer: String) throws {
    let arguments = range == "PQ" ? Self.hdr10Arguments : Self.tenBitHEVC(transfer: transfer)
    let (run, source, asset) = try encodeMadeSource(name, arguments, container: "fmp4", method: "aes-128")
    #expect(run.status == 0, "\(run.stderr)")
    let master = try PlaylistReader(contentsOf: asset.appendingPathComponent("master.m3u8"))
    let variant = try #require(master.variants.first)
    #expect(variant.attributes["VIDEO-RANGE"] == range)
    #expect(variant.attributes["CODECS"]?.hasPrefix("hvc1.2.4.L") == true, "Main 10: \(variant.attributes)")
    let playlist = asset.appendingPathComponent("main/index.m3u8").path
    let probe = try Command.run(
      "ffprobe",
      [
        "-v", "error", "-allowed_extensions", "ALL", "-select_streams", "v:0", "-read_intervals", "%+#1",
        "-show_entries", "stream=color_transfer,color_primaries,profile:frame_side_data=side_data_type",
        "-of", "default=nw=1", playlist,
      ])
    #expect(probe.text.contains("color_transfer=\(transfer)") && probe.text.contains("color_primaries=bt2020"))
    #expect(probe.text.contains("profile=Main 10"), "\(probe.text)")
    if range == "PQ" {
      #expect(
        probe.text.contains("Mastering display metadata") && probe.text.contains("Content light level metadata"),
        "\(probe.text)")
    }
    let verified = try Command.run(
      try Fixtures.executable(), ["verify", asset.appendingPathComponent("master.m3u8").path])
    #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
    // Bit-exact: the package decodes to the source's pictures.
    func frames(_ input: String) throws -> [String] {
      let decoded = try Command.run(
        "ffmpeg",
        ["-v", "error"] + (input.hasSuffix(".m3u8") ? ["-allowed_extensions", "ALL"] : [])
          + ["-i", input, "-map", "0:v:0", "-f", "framemd5", "-"])
      return decoded.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
        String($0.split(separator: ",").last ?? "")
      }
    }
    let sourceFrames = try frames(source.path)
    let packageFrames = try frames(playlist)
    #expect(sourceFrames.count == 50 && packageFrames == sourceFrames)
  }
}
