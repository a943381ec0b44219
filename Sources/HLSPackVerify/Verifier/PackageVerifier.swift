import Foundation
import HLSPackCore
import HLSPackPackage

import HLSPackCrypto

/// The package cannot be checked at all: its entry playlist cannot be read.
public struct VerifyError: Error, CustomStringConvertible {
  public var description: String
}

/// Checks an HLS package made by any packager, in a folder or on a web
/// server: its playlists, its key files and every byte of its segments,
/// decrypting AES-128 ones.
public struct PackageVerifier {
  /// Where the package's files are read from; every location is reported relative to its folder.
  public let source: any PackageSource
  /// The playlist verification starts from, relative to the package folder.
  public let entry: String
  /// Keys for URIs the package cannot serve itself (`--key`, `--keys`).
  public var providedKeys = ProvidedKeys()
  /// The rules whose findings are reported (`--rules`).
  public var rules = VerifyRuleSet.apple
  /// How many segments of each media playlist have their bytes read (`--sample`); nil: all.
  public var sample: Int?
  /// Undoes SAMPLE-AES, so that encrypted MPEG-TS payloads are checked too;
  /// nil: they are checked as packets only.
  public var sampleAES: (any SampleAESDecrypting.Type)?

  public init(source: any PackageSource, entry: String) {
    self.source = source
    self.entry = entry
  }

  /// What one media playlist's segments weigh, for the bandwidth rules; nil
  /// when a segment is missing or has no duration, so nothing can be measured.
  struct Measured {
    var samples: [BandwidthRules.Sample]
    var targetDuration: Int
  }

  struct RangeCheck {
    var segment: VerifiedMediaPlaylist.Segment
    var range: (length: Int, offset: Int)
    var resource: String
    var size: Int
    var file: String
    var folder: String
  }

  struct Run {
    var findings: [Finding] = []
    var keys: VerifyKeyStore
    var keyUses: [KeyRules.Use] = []
    var mediaKeys: [SessionKeyRules.MediaKey] = []
    /// I-frame ranges, checked once every whole segment is: a segment found
    /// broken whole is not reported again through its ranges.
    var ranges: [RangeCheck] = []
    var brokenSegments: Set<String> = []
    /// Resources whose bytes were read whole: with `sample`, only their I-frame ranges are.
    var readSegments: Set<String> = []
    /// What each media playlist's segments carry, by playlist path.
    var inspected: [String: [InspectedSegment]] = [:]
    /// Parsed fMP4 initialization sections by path; nil when unreadable.
    var initSections: [String: FragmentedInitSection?] = [:]
    /// Why an initialization section of `initSections` could not be read.
    var initSectionProblems: [String: SourceFailure] = [:]
    var playlists = 0
    var segments = 0
    var bytes = 0
    let cipher: AES128CBC
  }

  public func run() throws(VerifyError) -> VerifyReport {
    let bytes: [UInt8]
    do {
      bytes = try source.readWhole(entry, limit: PackageFiles.playlistLimit)
    } catch {
      throw VerifyError(description: "\(source.root)\(entry): cannot read the playlist: \(error.detail(entry))")
    }
    let cipher: AES128CBC
    do { cipher = try AES128CBC() } catch { throw VerifyError(description: "AES-128-CBC unavailable: \(error)") }
    var run = Run(keys: VerifyKeyStore(source: source, provided: providedKeys), cipher: cipher)
    let text = PlaylistText(bytes)
    run.playlists += 1
    run.findings += PlaylistRules.common(text, file: entry)
    if text.isMultivariant {
      verifyMultivariant(text, run: &run)
    } else {
      _ = verifyMedia(text, file: entry, run: &run)
    }
    for check in run.ranges
    where !run.brokenSegments.contains(check.resource) && (sample == nil || run.readSegments.contains(check.resource)) {
      checkRange(check, run: &run)
    }
    // Requests made after the run's deadline failed at once: the report would miss what they read.
    if let expired = source.expired {
      throw VerifyError(
        description:
          "\(source.root)\(entry): verify stopped, \(expired); \(run.playlists) playlists and \(run.segments) segments were read, the report is incomplete"
      )
    }
    let findings = run.findings + run.keys.findings + KeyRules.uniquePairs(run.keyUses)
    var report = VerifyReport(
      findings: findings.filter { rules.includes($0.rule) }, playlists: run.playlists, segments: run.segments,
      bytes: run.bytes)
    report.sample = sample
    return report
  }

  private func verifyMultivariant(_ text: PlaylistText, run: inout Run) {
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
      run.playlists += 1
      let media = PlaylistText(bytes)
      run.findings += PlaylistRules.common(media, file: path)
      measured[path] = verifyMedia(media, file: path, run: &run)
    }
    run.findings += SessionKeyRules.check(text, file: entry, mediaKeys: run.mediaKeys)
    let inspected = run.inspected
    run.findings += VariantBitstreamRules.check(playlist, file: entry) {
      inspected[URIReference.fromPackageRoot($0, writtenIn: folder)]
    }
    let mediaURIs = playlist.variants.filter { !$0.iFrame }.map(\.uri) + playlist.renditions.compactMap(\.uri)
    var paths: [String] = []
    for uri in mediaURIs where !paths.contains(URIReference.fromPackageRoot(uri, writtenIn: folder)) {
      paths.append(URIReference.fromPackageRoot(uri, writtenIn: folder))
    }
    run.findings += BitstreamRules.discontinuities(paths.compactMap { path in inspected[path].map { (path, $0) } })
    func path(_ uri: String) -> String { URIReference.fromPackageRoot(uri, writtenIn: folder) }
    func rates(_ path: String) -> (peak: Double, average: Double)? {
      guard let found = measured[path], let found else { return nil }
      return (
        BandwidthRules.peak(found.samples, targetDuration: found.targetDuration), BandwidthRules.average(found.samples)
      )
    }
    for variant in playlist.variants where !variant.iFrame {
      let groups = VerifiedMultivariantPlaylist.groupAttributes.map { _, type in
        playlist.renditions(of: variant, type: type).compactMap(\.uri).map(path)
      }
      guard let total = BandwidthRules.heaviestCombination(variant: path(variant.uri), groups: groups, rates: rates)
      else { continue }
      run.findings += BandwidthRules.check(
        variant, measuredPeak: total.peak, measuredAverage: total.average, file: entry)
    }
  }

  private func verifyMedia(_ text: PlaylistText, file: String, run: inout Run) -> Measured? {
    let playlist = VerifiedMediaPlaylist(text)
    run.findings += PlaylistRules.media(playlist, file: file)
    let folder = VerifyPaths.folder(of: file)
    for key in playlist.keys where key.method != "NONE" {
      guard let uri = key.uri else { continue }
      run.mediaKeys.append(
        SessionKeyRules.MediaKey(key, uri: URIReference.fromPackageRoot(uri, writtenIn: folder), file: file))
    }
    var samples: [BandwidthRules.Sample] = []
    var complete = true
    var initializationSections: Set<String> = []
    var unverified: [KeyAvailabilityRules.Unverified] = []
    let sampled = SegmentSample.indices(total: playlist.segments.count, count: sample)
    var inspected: [InspectedSegment] = []
    var aacToolsKnown = false
    // Past the run's deadline nothing more is read: `run()` reports the run as stopped.
    for (index, segment) in playlist.segments.enumerated() where source.expired == nil {
      inspected.append(InspectedSegment(segment: segment, facts: nil))
      if let map = segment.mapURI, initializationSections.insert(map).inserted {
        checkMap(map, folder: folder, file: file, line: segment.line, run: &run)
      }
      let resource = URIReference.fromPackageRoot(segment.uri, writtenIn: folder)
      let size: Int
      do {
        size = try source.size(resource)
      } catch {
        run.findings.append(
          Self.accessFinding(
            error, path: resource, otherwise: VerifyRules.segmentMissing, file: file, line: segment.line,
            segment: segment.uri))
        complete = false
        continue
      }
      if let problem = segment.rangeProblem(size: size) {
        run.findings.append(
          Finding(
            VerifyRules.segmentByteRangeInvalid, file: file, line: segment.line, segment: segment.uri, detail: problem))
        complete = false
        continue
      }
      if let duration = segment.duration {
        samples.append(BandwidthRules.Sample(bytes: segment.byteRange?.length ?? size, seconds: duration))
      } else {
        complete = false
      }
      recordKeyUse(segment, resource: resource, file: file, folder: folder, run: &run)
      if let range = segment.byteRange, playlist.iFramesOnly {
        run.ranges.append(
          RangeCheck(segment: segment, range: range, resource: resource, size: size, file: file, folder: folder))
      }
      // An I-frame playlist names ranges of segments its parent playlist already
      // checks whole; ranges of one file (single-file packages) are not decrypted yet.
      guard !playlist.iFramesOnly, segment.byteRange == nil else { continue }
      guard sampled.contains(index) else { continue }
      run.segments += 1
      // A server's Content-Length is any 63-bit number: the total saturates.
      run.bytes = run.bytes.addingReportingOverflow(size).overflow ? Int.max : run.bytes + size
      run.readSegments.insert(resource)
      countUnverifiable(segment, file: file, folder: folder, into: &unverified, run: &run)
      inspected[inspected.count - 1].facts = Self.resolvingAACTools(
        checkBytes(segment, resource: resource, size: size, file: file, folder: folder, run: &run),
        known: &aacToolsKnown)
    }
    if !playlist.iFramesOnly {
      run.findings += BitstreamRules.media(inspected, file: file)
      run.inspected[file] = inspected
    }
    run.findings += KeyAvailabilityRules.findings(unverified, file: file)
    guard complete, let target = playlist.targetDuration, target >= 1, !playlist.iFramesOnly else { return nil }
    return Measured(samples: samples, targetDuration: target)
  }

  /// An encrypted segment whose key cannot be had (and no must-fix finding
  /// says why) is counted, so that the checks it misses are reported.
  private func countUnverifiable(
    _ segment: VerifiedMediaPlaylist.Segment, file: String, folder: String,
    into unverified: inout [KeyAvailabilityRules.Unverified], run: inout Run
  ) {
    guard let key = segment.key, Self.encryptingMethods.contains(key.method), let uri = key.uri,
      run.keys.bytes(for: key, file: file, folder: folder) == nil, run.keys.isUnavailable(key, folder: folder)
    else { return }
    if let index = unverified.firstIndex(where: { $0.keyURI == uri && $0.method == key.method }) {
      unverified[index].segments += 1
    } else {
      unverified.append(.init(keyURI: uri, method: key.method, line: key.line, segments: 1))
    }
  }

  static let encryptingMethods: Set<String> = ["AES-128", "SAMPLE-AES", "SAMPLE-AES-CTR"]

  /// Only whole-segment AES-128 with the identity key format: SAMPLE-AES and
  /// `cbcs` reuse one IV by design, and other key formats carry their own IVs.
  private func recordKeyUse(
    _ segment: VerifiedMediaPlaylist.Segment, resource: String, file: String, folder: String, run: inout Run
  ) {
    guard let key = segment.key, key.method == "AES-128", (key.value("KEYFORMAT") ?? "identity") == "identity",
      let iv = segment.effectiveIV, let uri = key.uri
    else { return }
    let identity =
      run.keys.bytes(for: key, file: file, folder: folder).map { Hex.encode($0) }
      ?? URIReference.fromPackageRoot(uri, writtenIn: folder)
    run.keyUses.append(
      KeyRules.Use(key: identity, iv: iv, resource: resource, file: file, line: segment.line, segment: segment.uri))
  }

  /// A finding for a resource that cannot be read: outside the package, or
  /// `otherwise` (missing, unreadable), with `note` after the detail.
  static func accessFinding(
    _ failure: SourceFailure, path: String, otherwise rule: VerifyRule, file: String, line: Int? = nil,
    segment: String? = nil, note: String = ""
  ) -> Finding {
    let found: VerifyRule
    if case .outside = failure { found = VerifyRules.packageOutsideBoundary } else { found = rule }
    return Finding(found, file: file, line: line, segment: segment, detail: failure.detail(path) + note)
  }
}
