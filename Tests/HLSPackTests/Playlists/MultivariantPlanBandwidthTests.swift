import Foundation
import Testing

@testable import HLSPack
@testable import HLSPackCore
@testable import HLSPackVerify

/// The packager's BANDWIDTH and AVERAGE-BANDWIDTH are what verify measures
/// from the same rates: both sum a variant's renditions with
/// `HeaviestCombination`, so no master hlspack writes fails verify's rules.
@Suite struct MultivariantPlanBandwidthTests {
  /// Two rungs, an AUDIO group of two members (the second the heavier), audio-only
  /// variants, and a SUBTITLES group: each master variant, as verify reads it back.
  @Test func verifyMeasuresWhatThePackagerDeclares() throws {
    let json = """
      { "version": 1, "segment": { "duration": 6 },
        "video": [ { "name": "720p", "width": 1280, "height": 720, "bitrate": 2500000 },
                   { "name": "360p", "width": 640, "height": 360, "bitrate": 700000 } ],
        "audio": [ { "name": "English", "language": "en", "track": 0, "default": true },
                   { "name": "Français", "language": "fr", "track": 0 } ],
        "audio_only_variants": true }
      """
    let profile = try ProfileLoader.load(
      data: Data(json.utf8), file: "profile.json", baseDirectory: FileManager.default.temporaryDirectory,
      environment: [:])
    let rates: [String: HeaviestCombination.Rates] = [
      "720p/index.m3u8": .init(peak: 2_900_000, average: 2_400_000),
      "360p/index.m3u8": .init(peak: 800_000, average: 690_000),
      "audio/en/index.m3u8": .init(peak: 140_000, average: 128_000),
      "audio/fr/index.m3u8": .init(peak: 150_000, average: 126_000),
      "subtitles/en/index.m3u8": .init(peak: 900, average: 300),
    ]
    func measured(_ playlist: String, width: Int) throws -> MultivariantPlan.Measured {
      let found = try #require(rates[playlist])
      let facts = WrittenStreamFacts(
        codecs: width > 0 ? ["avc1.64001f"] : ["mp4a.40.2"], width: width, height: width * 9 / 16,
        frameRate: width > 0 ? 25 : 0, videoFrames: 0)
      return MultivariantPlan.Measured(playlist: playlist, facts: facts, peak: found.peak, average: found.average)
    }
    let subtitle = SubtitleTrack(
      id: "en", name: "English", language: "en", file: "x.vtt", isDefault: true, autoselect: true, forced: false)
    let plan = MultivariantPlan(
      profile: profile,
      video: [try measured("720p/index.m3u8", width: 1280), try measured("360p/index.m3u8", width: 640)],
      audio: [try measured("audio/en/index.m3u8", width: 0), try measured("audio/fr/index.m3u8", width: 0)],
      subtitles: [.init(track: subtitle, playlist: "subtitles/en/index.m3u8", peak: 900, average: 300)],
      iFrameVariants: [], sessionKeys: [])
    let master = VerifiedMultivariantPlaylist(PlaylistText(Array(plan.playlist().render().utf8)))
    #expect(master.variants.count == 3)
    for variant in master.variants {
      let total = try #require(
        HeaviestCombination.rates(variant: variant.uri, groups: master.renditionURIs(of: variant)) { rates[$0] })
      #expect(variant.bandwidth == UInt64(total.peak) && variant.averageBandwidth == UInt64(total.average))
      let findings = BandwidthRules.check(
        variant, measuredPeak: Double(total.peak), measuredAverage: Double(total.average), file: "master.m3u8")
      #expect(findings.isEmpty, "\(variant.uri): \(findings.map(\.rule.id))")
    }
    // The audio-only variant is its group's heaviest member, not English plus French.
    let audioOnly = try #require(master.variants.first { $0.uri == "audio/en/index.m3u8" })
    #expect(audioOnly.bandwidth == 150_000 && audioOnly.averageBandwidth == 128_000)
  }
}
