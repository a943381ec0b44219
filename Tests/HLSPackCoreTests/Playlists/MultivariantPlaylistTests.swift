import HLSPackTestSupport
import Testing

@testable import HLSPackCore

@Suite struct MultivariantPlaylistTests {
  static func variant(
    _ uri: String, _ bandwidth: Int, _ average: Int, _ video: String, _ size: (Int, Int), _ fps: Double
  )
    -> MultivariantPlaylist.Variant
  {
    .init(
      uri: uri, bandwidth: bandwidth, averageBandwidth: average, codecs: [video, "mp4a.40.2"], width: size.0,
      height: size.1,
      frameRate: fps)
  }

  @Test func threeVariantsSortedByBandwidth() throws {
    // Given highest first; the two 1.2 Mbit/s variants must keep this order
    // (not the alphabetical one) in the output.
    let playlist = MultivariantPlaylist(
      variants: [
        Self.variant("720p/index.m3u8", 3_300_000, 2_900_000, "avc1.64001f", (1280, 720), 30000.0 / 1001),
        Self.variant("480p_main/index.m3u8", 1_200_000, 1_000_000, "avc1.4d401e", (854, 480), 25),
        Self.variant("480p_base/index.m3u8", 1_200_000, 990_000, "avc1.42c01e", (854, 480), 29.97002997),
      ],
      independentSegments: true)
    try assertSnapshot(playlist.render(), named: "master_three_variants")
  }

  /// A client that starts with the first variant listed must start with a
  /// picture: the audio-only variant, though the lowest, comes last.
  @Test func audioOnlyVariantsComeAfterVideo() {
    let audioOnly = MultivariantPlaylist.Variant(
      uri: "audio/index.m3u8", bandwidth: 140_000, averageBandwidth: 130_000, codecs: ["mp4a.40.2"], width: 0,
      height: 0,
      frameRate: 0)
    let playlist = MultivariantPlaylist(
      variants: [
        Self.variant("720p/index.m3u8", 3_300_000, 2_900_000, "avc1.64001f", (1280, 720), 25), audioOnly,
        Self.variant("360p/index.m3u8", 900_000, 800_000, "avc1.4d401e", (640, 360), 25),
      ],
      independentSegments: true)
    let uris = playlist.render().split(separator: "\n").filter { !$0.hasPrefix("#") }
    #expect(uris == ["360p/index.m3u8", "720p/index.m3u8", "audio/index.m3u8"])
  }

  /// VIDEO-RANGE comes from the transfer characteristics (RFC 8216bis §4.4.6.2) and
  /// is written for HDR only, on the variant and on its I-frame variant.
  @Test func videoRangeIsWrittenForHDROnly() {
    #expect(
      [1, 2, 6, 13, 14, 15, 16, 18].map { VideoRange(transferCharacteristics: $0) } == [
        .sdr, .sdr, .sdr, .sdr, .sdr, .sdr, .pq, .hlg,
      ])
    var pq = Self.variant("pq/index.m3u8", 3_000_000, 2_800_000, "hvc1.2.4.L123.B0", (1920, 1080), 25)
    pq.videoRange = .pq
    let sdr = Self.variant("sdr/index.m3u8", 900_000, 800_000, "avc1.4d401e", (640, 360), 25)
    let playlist = MultivariantPlaylist(
      variants: [pq, sdr],
      iFrameVariants: [
        .init(
          uri: "pq/iframes.m3u8", bandwidth: 90_000, averageBandwidth: 80_000, codecs: ["hvc1.2.4.L123.B0"],
          width: 1920, height: 1080, videoRange: .hlg),
        .init(
          uri: "sdr/iframes.m3u8", bandwidth: 40_000, averageBandwidth: 30_000, codecs: ["avc1.4d401e"], width: 640,
          height: 360),
      ],
      independentSegments: true)
    let lines = playlist.render().split(separator: "\n").map(String.init)
    #expect(
      lines.contains(
        #"#EXT-X-STREAM-INF:BANDWIDTH=3000000,AVERAGE-BANDWIDTH=2800000,CODECS="hvc1.2.4.L123.B0,mp4a.40.2",RESOLUTION=1920x1080,FRAME-RATE=25.000,VIDEO-RANGE=PQ"#
      ))
    #expect(
      lines.contains(
        #"#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,AVERAGE-BANDWIDTH=80000,CODECS="hvc1.2.4.L123.B0",RESOLUTION=1920x1080,VIDEO-RANGE=HLG,URI="pq/iframes.m3u8""#
      ))
    #expect(lines.filter { $0.contains("VIDEO-RANGE") }.count == 2, "SDR stays implicit: \(lines)")
  }

  /// A Dolby Vision profile 8 variant names its base layer in CODECS and the
  /// Dolby Vision stream in SUPPLEMENTAL-CODECS (RFC 8216bis §4.4.6.2), on the
  /// variant and its I-frame variant; others have no SUPPLEMENTAL-CODECS.
  @Test func supplementalCodecsFollowCodecs() {
    var dv = Self.variant("dv/index.m3u8", 3_000_000, 2_800_000, "hvc1.2.4.L123.B0", (1920, 1080), 25)
    dv.videoRange = .pq
    dv.supplementalCodecs = ["dvh1.08.06/db1p"]
    let sdr = Self.variant("sdr/index.m3u8", 900_000, 800_000, "avc1.4d401e", (640, 360), 25)
    let playlist = MultivariantPlaylist(
      variants: [dv, sdr],
      iFrameVariants: [
        .init(
          uri: "dv/iframes.m3u8", bandwidth: 90000, averageBandwidth: 80000, codecs: ["hvc1.2.4.L123.B0"], width: 1920,
          height: 1080, videoRange: .pq, supplementalCodecs: ["dvh1.08.06/db1p"])
      ],
      independentSegments: true)
    let lines = playlist.render().split(separator: "\n").map(String.init)
    #expect(
      lines.contains(
        #"#EXT-X-STREAM-INF:BANDWIDTH=3000000,AVERAGE-BANDWIDTH=2800000,CODECS="hvc1.2.4.L123.B0,mp4a.40.2",SUPPLEMENTAL-CODECS="dvh1.08.06/db1p",RESOLUTION=1920x1080,FRAME-RATE=25.000,VIDEO-RANGE=PQ"#
      ))
    #expect(
      lines.contains(
        #"#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,AVERAGE-BANDWIDTH=80000,CODECS="hvc1.2.4.L123.B0",SUPPLEMENTAL-CODECS="dvh1.08.06/db1p",RESOLUTION=1920x1080,VIDEO-RANGE=PQ,URI="dv/iframes.m3u8""#
      ))
    #expect(lines.filter { $0.contains("SUPPLEMENTAL-CODECS") }.count == 2, "\(lines)")
  }

  /// Apple's rule for protected content (Apple HLS Authoring Spec 13.5–13.7): SD none, HD TYPE-0,
  /// beyond 1080p TYPE-1, by the shorter side; audio-only variants get none.
  @Test func hdcpLevelsFollowThePictureSize() {
    let sizes = [(640, 360), (1024, 576), (1280, 720), (720, 1280), (1920, 1080), (2560, 1440), (3840, 2160)]
    #expect(
      sizes.map { HDCPLevel(width: $0.0, height: $0.1) } == [.none, .none, .type0, .type0, .type0, .type1, .type1])
    #expect(HDCPPolicy.byResolution.level(width: 0, height: 0) == nil)
    #expect(HDCPPolicy.fixed(.type1).level(width: 640, height: 360) == .type1)
    #expect(HDCPPolicy.omitted.level(width: 1920, height: 1080) == nil)
    var hd = Self.variant("hd/index.m3u8", 3_000_000, 2_800_000, "avc1.640028", (1920, 1080), 25)
    hd.hdcpLevel = .type0
    let playlist = MultivariantPlaylist(
      variants: [hd],
      iFrameVariants: [
        .init(
          uri: "hd/iframes.m3u8", bandwidth: 90_000, averageBandwidth: 80_000, codecs: ["avc1.640028"], width: 1920,
          height: 1080, hdcpLevel: .type0)
      ],
      independentSegments: true)
    let lines = playlist.render().split(separator: "\n").map(String.init)
    #expect(
      lines.contains(
        #"#EXT-X-STREAM-INF:BANDWIDTH=3000000,AVERAGE-BANDWIDTH=2800000,CODECS="avc1.640028,mp4a.40.2",RESOLUTION=1920x1080,FRAME-RATE=25.000,HDCP-LEVEL=TYPE-0"#
      ))
    #expect(
      lines.contains(
        #"#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,AVERAGE-BANDWIDTH=80000,CODECS="avc1.640028",RESOLUTION=1920x1080,HDCP-LEVEL=TYPE-0,URI="hd/iframes.m3u8""#
      ))
  }

  @Test func noIndependentSegmentsTagUnlessTrue() {
    let playlist = MultivariantPlaylist(
      variants: [Self.variant("a.m3u8", 1, 1, "avc1.42c01e", (16, 16), 25)], independentSegments: false)
    #expect(!playlist.render().contains("INDEPENDENT-SEGMENTS"))
  }

  @Test func unknownFrameRateIsLeftOut() {
    let playlist = MultivariantPlaylist(
      variants: [Self.variant("a.m3u8", 1, 1, "avc1.42c01e", (16, 16), 0)], independentSegments: true)
    #expect(!playlist.render().contains("FRAME-RATE"))
  }

  /// Three decimals, rounded (RFC 8216bis §4.4.6.2).
  @Test(
    arguments: [
      (29.97002997, "29.970"),
      (25, "25.000"),
      (24000.0 / 1001, "23.976"),
      (60000.0 / 1001, "59.940"),
      (12.5, "12.500"),
      (59.9996, "60.000"),
      (120, "120.000"),
    ] as [(Double, String)])
  func formatFrameRate(fps: Double, expected: String) {
    let text = MultivariantPlaylist.formatFrameRate(fps)
    #expect(text == expected)
    #expect(text.wholeMatch(of: /\d+\.\d{3}/) != nil)
  }
}
