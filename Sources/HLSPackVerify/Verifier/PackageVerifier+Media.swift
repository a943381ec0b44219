import Foundation
import HLSPackCore

/// A media playlist: its rules, and each segment's size, key use and bytes.
extension PackageVerifier {
  func verifyMedia(_ text: PlaylistText, file: String, run: inout Run) -> Measured? {
    let playlist = VerifiedMediaPlaylist(text)
    run.findings += PlaylistRules.media(playlist, file: file)
    run.findings += ByteRangeRules.media(playlist, file: file)
    let folder = VerifyPaths.folder(of: file)
    for key in playlist.keys where key.method != "NONE" {
      guard let uri = key.uri else { continue }
      run.keys.media.append(
        SessionKeyRules.MediaKey(key, uri: URIReference.fromPackageRoot(uri, writtenIn: folder), file: file))
    }
    var samples: [BandwidthMeter.Sample] = []
    var complete = true
    var initializationSections: Set<String> = []
    var unverified: [KeyAvailabilityRules.Unverified] = []
    let sampled = SegmentSample.indices(total: playlist.segments.count, count: sample)
    var inspected: [InspectedSegment] = []
    var aacToolsKnown = false
    // Past the run's deadline nothing more is read: `run()` reports the run as stopped.
    for (index, segment) in playlist.segments.enumerated() where source.expired == nil {
      inspected.append(InspectedSegment(segment: segment, facts: nil))
      if let map = segment.mapURI,
        initializationSections.insert(Self.sectionName(map, range: segment.mapRange)).inserted
      {
        checkMap(segment, map: map, folder: folder, file: file, run: &run)
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
        samples.append(BandwidthMeter.Sample(bytes: segment.byteRange?.length ?? size, seconds: duration))
      } else {
        complete = false
      }
      recordKeyUse(
        segment, resource: resource, offset: playlist.iFramesOnly ? nil : segment.byteRange?.offset, file: file,
        folder: folder, run: &run)
      if let range = segment.byteRange, playlist.iFramesOnly {
        run.reads.ranges.append(
          RangeCheck(segment: segment, range: range, resource: resource, size: size, file: file, folder: folder))
      }
      // An I-frame playlist names ranges of segments its parent playlist already
      // checks; a media segment that is a range of a file (a single-file
      // rendition) is read, decrypted and inspected as that range alone.
      guard !playlist.iFramesOnly else { continue }
      guard sampled.contains(index) else { continue }
      let segmentSize = segment.byteRange?.length ?? size
      run.tally.countSegment(size: segmentSize)
      run.reads.whole.insert(resource)
      countUnverifiable(segment, file: file, folder: folder, into: &unverified, run: &run)
      inspected[inspected.count - 1].facts = Self.resolvingAACTools(
        checkBytes(segment, resource: resource, size: segmentSize, file: file, folder: folder, run: &run),
        known: &aacToolsKnown)
    }
    if !playlist.iFramesOnly {
      run.findings += BitstreamRules.media(inspected, file: file)
      run.facts.inspected[file] = inspected
    }
    run.findings += KeyAvailabilityRules.findings(unverified, file: file)
    // An I-frame playlist is measured too: its segments are its I-frames' byte ranges (RFC 8216bis §4.4.3.6).
    guard complete, let target = playlist.targetDuration, target >= 1 else { return nil }
    return Measured(samples: samples, targetDuration: target)
  }

  /// An encrypted segment whose key cannot be had (and no must-fix finding
  /// says why) is counted, so that the checks it misses are reported.
  private func countUnverifiable(
    _ segment: VerifiedMediaPlaylist.Segment, file: String, folder: String,
    into unverified: inout [KeyAvailabilityRules.Unverified], run: inout Run
  ) {
    guard let key = segment.key, Self.encryptingMethods.contains(key.method), let uri = key.uri,
      run.keys.store.bytes(for: key, file: file, folder: folder) == nil, run.keys.store.isUnavailable(key, folder: folder)
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
    _ segment: VerifiedMediaPlaylist.Segment, resource: String, offset: Int?, file: String, folder: String,
    run: inout Run
  ) {
    guard let key = segment.key, key.method == "AES-128", (key.value("KEYFORMAT") ?? "identity") == "identity",
      let iv = segment.effectiveIV, let uri = key.uri
    else { return }
    let identity =
      run.keys.store.bytes(for: key, file: file, folder: folder).map { Hex.encode($0) }
      ?? URIReference.fromPackageRoot(uri, writtenIn: folder)
    run.keys.uses.append(
      KeyRules.Use(
        key: identity, iv: iv, resource: resource, file: file, line: segment.line, segment: segment.uri, offset: offset))
  }
}
