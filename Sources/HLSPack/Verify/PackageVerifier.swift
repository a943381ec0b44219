import Foundation
import HLSPackCore
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
    where URIReference.scheme(of: path) == nil {
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
    for (index, segment) in playlist.segments.enumerated() {
      inspected.append(InspectedSegment(segment: segment, facts: nil))
      if let map = segment.mapURI, initializationSections.insert(map).inserted {
        let resource = URIReference.fromPackageRoot(map, writtenIn: folder)
        do {
          if URIReference.scheme(of: resource) == nil {
            _ = try source.size(resource)
            if let problem = initSection(resource, run: &run)?.sampleDescriptionProblem {
              run.findings.append(
                Finding(
                  VerifyRules.segmentSampleDescriptions, file: file, line: segment.line, segment: map, detail: problem))
            }
          }
        } catch {
          run.findings.append(
            Self.accessFinding(
              error, path: resource, otherwise: VerifyRules.segmentMissing, file: file, line: segment.line,
              segment: map, note: " (EXT-X-MAP)"))
        }
      }
      let resource = URIReference.fromPackageRoot(segment.uri, writtenIn: folder)
      guard URIReference.scheme(of: resource) == nil else {
        complete = false
        continue
      }
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
      run.bytes += size
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

  /// Checks a segment's bytes; what its clear or decrypted bitstream says,
  /// nil when it could not be read to the end.
  private func checkBytes(
    _ segment: VerifiedMediaPlaylist.Segment, resource: String, size: Int, file: String, folder: String,
    run: inout Run
  ) -> SegmentMediaFacts? {
    let container = SegmentContainer.of(uri: segment.uri, hasMap: segment.mapURI != nil)
    func finding(_ rule: VerifyRule, _ detail: String) {
      run.findings.append(Finding(rule, file: file, line: segment.line, segment: segment.uri, detail: detail))
      run.brokenSegments.insert(resource)
    }
    let keyBytes = segment.key.flatMap { run.keys.bytes(for: $0, file: file, folder: folder) }
    switch segment.key?.method {
    case nil, "SAMPLE-AES":
      // SAMPLE-AES leaves the transport stream's packet structure clear, and
      // its NAL unit headers and slice headers: without the key only the
      // payloads' decryption is not checked (key.unavailable says so).
      if container == .fragmentedMP4 {
        return inspectFragment(resource, segment: segment, folder: folder, key: keyBytes, run: &run)
      }
      guard container == .transportStream else { return nil }
      let checker = keyBytes.flatMap { key in
        segment.effectiveIV.flatMap { try? SampleAESPayloadChecker(key: key, iv: $0) }
      }
      var inspector = TransportStreamInspector(checker: checker)
      var scanner = TransportStreamScanner()
      guard
        (try? source.stream(
          resource,
          {
            scanner.consume($0[...])
            inspector.consume($0[...])
          })) != nil
      else { return nil }
      if let problem = scanner.finish() {
        finding(VerifyRules.segmentTSSyncLost, problem)
        return nil
      }
      return inspector.finish()
    case "AES-128":
      guard let keyBytes, let iv = segment.effectiveIV else { return nil }
      guard size > 0, size % AES128CBC.blockSize == 0 else {
        finding(VerifyRules.segmentAES128Length, "\(size) bytes")
        return nil
      }
      var inspector = container == .transportStream ? TransportStreamInspector(checker: nil) : nil
      let section = segment.mapURI.flatMap {
        initSection(URIReference.fromPackageRoot($0, writtenIn: folder), run: &run)
      }
      var fragment: [UInt8] = []
      let problem = decrypt(resource, key: keyBytes, iv: iv, cipher: run.cipher, container: container) { clear in
        inspector?.consume(clear)
        if section != nil { fragment += clear }
      }
      if let problem {
        finding(VerifyRules.segmentAES128Undecryptable, problem)
        return nil
      }
      if let section { return FragmentInspector.inspect(&fragment, initSection: section, cipher: nil, decode: nil) }
      return inspector?.finish()
    default:
      return nil
    }
  }

  /// Decrypts piece by piece into the container's scanner; what is wrong, or nil.
  private func decrypt(
    _ resource: String, key: [UInt8], iv: [UInt8], cipher: AES128CBC, container: SegmentContainer,
    inspect: (ArraySlice<UInt8>) -> Void
  ) -> String? {
    var scanner = container.scanner
    var clear: [UInt8] = []
    do {
      try cipher.start(key: key, iv: iv, encrypt: false, padding: true)
      try source.stream(resource) { piece in
        let produced = try cipher.update(piece, into: &clear)
        scanner?.consume(clear[0..<produced])
        inspect(clear[0..<produced])
      }
    } catch {
      return "cannot decrypt: \(error)"
    }
    guard let last = try? cipher.finish() else { return "PKCS#7 padding invalid after decryption" }
    scanner?.consume(last[...])
    inspect(last[...])
    return scanner?.finish().map { "decrypted bytes are not \(container.name): \($0)" }
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
