import Foundation
import HLSPackCore
import HLSPackPackage

/// A multivariant playlist: its own rules, each media playlist it names, and
/// the rules over its variants (session keys, bit streams, BANDWIDTH).
extension PackageVerifier {
  func verifyMultivariant(_ text: PlaylistText, run: inout Run) {
    let playlist = VerifiedMultivariantPlaylist(text)
    run.findings += PlaylistRules.groups(playlist, file: entry) + RenditionRules.check(playlist, file: entry)
    run.findings += VariantAttributeRules.check(playlist, file: entry)
    let folder = VerifyPaths.folder(of: entry)
    let uris = playlist.variants.map(\.uri) + playlist.renditions.compactMap(\.uri)
    var measured: [String: Measured?] = [:]
    for path in Set(uris.map { URIReference.fromPackageRoot($0, writtenIn: folder) }).sorted()
    where source.expired == nil {
      let bytes: [UInt8]
      do {
        bytes = try source.readWhole(path, limit: PackageFiles.playlistLimit)
      } catch {
        run.findings.append(
          Self.accessFinding(error, path: path, otherwise: VerifyRules.playlistUnreadable, file: entry))
        measured[path] = .some(nil)
        continue
      }
      run.tally.playlists += 1
      let media = PlaylistText(bytes)
      run.findings += PlaylistRules.common(media, file: path)
      measured[path] = verifyMedia(media, file: path, run: &run)
    }
    run.findings += SessionKeyRules.check(text, file: entry, mediaKeys: run.keys.media)
    let inspected = run.facts.inspected
    run.findings += VariantBitstreamRules.check(playlist, file: entry) {
      inspected[URIReference.fromPackageRoot($0, writtenIn: folder)]
    }
    let mediaURIs = playlist.variants.filter { !$0.iFrame }.map(\.uri) + playlist.renditions.compactMap(\.uri)
    var paths: [String] = []
    for uri in mediaURIs where !paths.contains(URIReference.fromPackageRoot(uri, writtenIn: folder)) {
      paths.append(URIReference.fromPackageRoot(uri, writtenIn: folder))
    }
    run.findings += BitstreamRules.discontinuities(paths.compactMap { path in inspected[path].map { (path, $0) } })
    run.findings += ProgramDateTimeRules.check(
      paths.compactMap { path in inspected[path].map { (path, $0) } },
      variants: playlist.variants.filter { !$0.iFrame }.map { URIReference.fromPackageRoot($0.uri, writtenIn: folder) })
    run.findings += bandwidthFindings(playlist, measured: measured, folder: folder)
  }

  /// BANDWIDTH and AVERAGE-BANDWIDTH of every variant against the rates of
  /// its heaviest combination (`HeaviestCombination`), and of every I-frame
  /// variant against its I-frame playlist's own; nothing for a variant whose
  /// playlists could not all be measured.
  private func bandwidthFindings(
    _ playlist: VerifiedMultivariantPlaylist, measured: [String: Measured?], folder: String
  ) -> [Finding] {
    func path(_ uri: String) -> String { URIReference.fromPackageRoot(uri, writtenIn: folder) }
    func rates(_ path: String) -> HeaviestCombination.Rates? {
      guard let found = measured[path], let found else { return nil }
      // Whole bit/s rounded up, as the packager declares them: the same numbers for an hlspack package.
      return HeaviestCombination.Rates(
        peak: BandwidthMeter.peak(found.samples, targetDuration: Int64(found.targetDuration)),
        average: BandwidthMeter.average(found.samples))
    }
    var findings: [Finding] = []
    for variant in playlist.variants {
      if variant.iFrame {
        guard let own = rates(path(variant.uri)) else { continue }
        findings += BandwidthRules.checkIFrame(variant, measured: own, file: entry)
        continue
      }
      let groups = playlist.renditionURIs(of: variant).map { $0.map(path) }
      guard let total = HeaviestCombination.rates(variant: path(variant.uri), groups: groups, rates: rates)
      else { continue }
      findings += BandwidthRules.check(
        variant, measuredPeak: Double(total.peak), measuredAverage: Double(total.average), file: entry)
    }
    return findings
  }
}
