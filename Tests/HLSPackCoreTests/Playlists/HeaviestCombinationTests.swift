import Testing

@testable import HLSPackCore

/// The one rule for a variant's BANDWIDTH and AVERAGE-BANDWIDTH over its
/// renditions (RFC 8216bis §4.4.6.2), which the packager declares and verify
/// measures: pinned here so that neither can drift from it alone.
@Suite struct HeaviestCombinationTests {
  typealias Rates = HeaviestCombination.Rates

  static let rates: [String: Rates] = [
    "720p/index.m3u8": Rates(peak: 2_000_000, average: 1_500_000),
    "audio/en/index.m3u8": Rates(peak: 140_000, average: 128_000),
    // The heavier peak and the heavier average are in different members.
    "audio/fr/index.m3u8": Rates(peak: 150_000, average: 120_000),
    "subtitles/en/index.m3u8": Rates(peak: 900, average: 300),
    "subtitles/fr/index.m3u8": Rates(peak: 1_000, average: 200),
  ]
  static let audio = ["audio/en/index.m3u8", "audio/fr/index.m3u8"]
  static let subtitles = ["subtitles/en/index.m3u8", "subtitles/fr/index.m3u8"]

  func measure(_ variant: String, _ groups: [[String]]) -> Rates? {
    HeaviestCombination.rates(variant: variant, groups: groups) { Self.rates[$0] }
  }

  /// A video variant: its playlist, the group's largest audio member and the largest subtitles, each measure on its own.
  @Test func videoAddsTheLargestMemberOfEachGroup() {
    #expect(measure("720p/index.m3u8", [Self.audio, Self.subtitles]) == Rates(peak: 2_151_000, average: 1_628_300))
    #expect(measure("720p/index.m3u8", [Self.audio, [], []]) == Rates(peak: 2_150_000, average: 1_628_000))
    #expect(measure("720p/index.m3u8", []) == Self.rates["720p/index.m3u8"])
  }

  /// An audio-only variant whose URI is one of its group's members (`audio_only_variants`) is that
  /// rendition: another member plays instead of it, never beside it.
  @Test func aVariantInItsOwnGroupIsItsHeaviestMember() {
    #expect(measure("audio/en/index.m3u8", [Self.audio]) == Rates(peak: 150_000, average: 128_000))
    #expect(measure("audio/fr/index.m3u8", [Self.audio, []]) == Rates(peak: 150_000, average: 128_000))
    #expect(measure("audio/en/index.m3u8", [["audio/en/index.m3u8"]]) == Self.rates["audio/en/index.m3u8"])
  }

  /// A playlist is counted once, whatever roles it plays.
  @Test func aPlaylistIsFetchedOnce() {
    let english = ["audio/en/index.m3u8"]
    #expect(measure("720p/index.m3u8", [english, english]) == Rates(peak: 2_140_000, average: 1_628_000))
  }

  @Test func aPlaylistThatCannotBeMeasuredLeavesTheVariantUnmeasured() {
    #expect(measure("720p/index.m3u8", [Self.audio + ["audio/de/index.m3u8"]]) == nil)
    #expect(measure("missing.m3u8", []) == nil)
  }

  /// Rates read from someone else's package may be absurd: the sum saturates instead of trapping.
  @Test func theSumSaturates() {
    let huge = HeaviestCombination.rates(
      variant: (playlist: "v", rates: Rates(peak: Int.max, average: Int.max - 1)),
      groups: [[(playlist: "a", rates: Rates(peak: Int.max, average: 5))]])
    #expect(huge == Rates(peak: Int.max, average: Int.max))
  }
}
