import FuzzSupport
import HLSPackCore

/// The playlist reading of `verify`, and every rule it runs on a playlist's
/// text with no file read: numbers, byte ranges, target durations, the
/// bandwidth arithmetic over the segments' ranges and EXTINFs, EXTINF against
/// a measured duration, and the report's text and JSON. Rules report
/// findings; none may trap, whatever the numbers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVerifyPlaylist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let text = PlaylistText(fuzzInput(data, size))
  var findings = PlaylistRules.common(text, file: "p.m3u8")
  let multivariant = VerifiedMultivariantPlaylist(text)
  findings += PlaylistRules.groups(multivariant, file: "p.m3u8") + RenditionRules.check(multivariant, file: "p.m3u8")
  findings += VariantAttributeRules.check(multivariant, file: "p.m3u8")
  let media = VerifiedMediaPlaylist(text)
  findings += PlaylistRules.media(media, file: "p.m3u8")
  // Resources of a few sizes, the largest any file has among them.
  for resourceSize in [0, 1000, Int.max] {
    for segment in media.segments {
      if let problem = segment.rangeProblem(size: resourceSize) {
        precondition(!problem.isEmpty)
      } else if let range = segment.byteRange {
        precondition(range.length > 0 && range.offset <= resourceSize - range.length, "range outside the resource")
      }
    }
  }
  let samples = media.segments.compactMap { segment in
    segment.duration.map { BandwidthRules.Sample(bytes: segment.byteRange?.length ?? 1_000_000, seconds: $0) }
  }
  let peak = BandwidthRules.peak(samples, targetDuration: max(media.targetDuration ?? 1, 1))
  let average = BandwidthRules.average(samples)
  for variant in multivariant.variants {
    findings += BandwidthRules.check(variant, measuredPeak: peak, measuredAverage: average, file: "p.m3u8")
  }
  var facts = SegmentMediaFacts()
  (facts.firstPTS, facts.endPTS, facts.frameDuration) = (0, 180_000, 3600)
  findings += BitstreamRules.media(media.segments.map { InspectedSegment(segment: $0, facts: facts) }, file: "p.m3u8")
  findings += VariantBitstreamRules.check(multivariant, file: "p.m3u8") { _ in
    media.segments.map { InspectedSegment(segment: $0, facts: facts) }
  }
  findings += SessionKeyRules.check(text, file: "p.m3u8", mediaKeys: [])
  let report = VerifyReport(findings: findings, playlists: 1, segments: media.segments.count, bytes: 0)
  _ = report.humanText
  _ = try? report.json()
  return 0
}
