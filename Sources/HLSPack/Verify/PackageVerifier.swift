import Foundation
import HLSPackCore
import HLSPackCrypto

/// The package cannot be checked at all: its entry playlist cannot be read.
public struct VerifyError: Error, CustomStringConvertible {
  public var description: String
}

/// Checks a local HLS package made by any packager: its playlists, its key
/// files and every byte of its segments, decrypting AES-128 ones.
public struct PackageVerifier {
  /// The folder every location is reported relative to.
  public let root: URL
  /// The playlist verification starts from, relative to `root`.
  public let entry: String

  /// `package` is a folder holding master.m3u8, or a master or media playlist.
  public init(package: URL) throws(VerifyError) {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: package.path, isDirectory: &isFolder) else {
      throw VerifyError(description: "\(package.path): no such file or folder")
    }
    if isFolder.boolValue {
      root = package
      entry = "master.m3u8"
    } else {
      root = package.deletingLastPathComponent()
      entry = package.lastPathComponent
    }
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
    var url: URL
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
    guard let bytes = readPlaylist(entry) else {
      throw VerifyError(description: "\(root.appendingPathComponent(entry).path): cannot read the playlist")
    }
    let cipher: AES128CBC
    do { cipher = try AES128CBC() } catch { throw VerifyError(description: "AES-128-CBC unavailable: \(error)") }
    var run = Run(keys: VerifyKeyStore(root: root), cipher: cipher)
    let text = PlaylistText(bytes)
    run.playlists += 1
    run.findings += PlaylistRules.common(text, file: entry)
    if text.isMultivariant {
      verifyMultivariant(text, run: &run)
    } else {
      _ = verifyMedia(text, file: entry, run: &run)
    }
    for check in run.ranges where !run.brokenSegments.contains(check.url.standardizedFileURL.path) {
      checkRange(check, run: &run)
    }
    let findings = run.findings + run.keys.findings + KeyRules.uniquePairs(run.keyUses)
    return VerifyReport(findings: findings, playlists: run.playlists, segments: run.segments, bytes: run.bytes)
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
      guard let bytes = readPlaylist(path) else {
        run.findings.append(Finding(VerifyRules.playlistUnreadable, file: entry, detail: "cannot read \(path)"))
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
    func rates(_ uri: String) -> (peak: Double, average: Double)? {
      guard let found = measured[URIReference.fromPackageRoot(uri, writtenIn: folder)], let found else { return nil }
      return (
        BandwidthRules.peak(found.samples, targetDuration: found.targetDuration), BandwidthRules.average(found.samples)
      )
    }
    for variant in playlist.variants where !variant.iFrame {
      guard var total = rates(variant.uri) else { continue }
      var measurable = true
      // The largest playable combination: the heaviest rendition of each group.
      for (_, type) in VerifiedMultivariantPlaylist.groupAttributes {
        let members = playlist.renditions(of: variant, type: type).compactMap(\.uri)
        let memberRates = members.map(rates)
        if memberRates.contains(where: { $0 == nil }) { measurable = false }
        let known = memberRates.compactMap { $0 }
        total.peak += known.map(\.peak).max() ?? 0
        total.average += known.map(\.average).max() ?? 0
      }
      guard measurable else { continue }
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
    var inspected: [InspectedSegment] = []
    for segment in playlist.segments {
      inspected.append(InspectedSegment(segment: segment, facts: nil))
      if let map = segment.mapURI, initializationSections.insert(map).inserted {
        let resource = URIReference.fromPackageRoot(map, writtenIn: folder)
        if URIReference.scheme(of: resource) == nil,
          fileSize(root.appendingPathComponent(VerifyPaths.stripQuery(resource))) == nil
        {
          run.findings.append(
            Finding(
              VerifyRules.segmentMissing, file: file, line: segment.line, segment: map,
              detail: "no file \(resource) (EXT-X-MAP)"))
        } else if let problem = initSection(resource, run: &run)?.sampleDescriptionProblem {
          run.findings.append(
            Finding(
              VerifyRules.segmentSampleDescriptions, file: file, line: segment.line, segment: map, detail: problem))
        }
      }
      let resource = URIReference.fromPackageRoot(segment.uri, writtenIn: folder)
      guard URIReference.scheme(of: resource) == nil else {
        complete = false
        continue
      }
      let url = root.appendingPathComponent(VerifyPaths.stripQuery(resource))
      guard let size = fileSize(url) else {
        run.findings.append(
          Finding(
            VerifyRules.segmentMissing, file: file, line: segment.line, segment: segment.uri,
            detail: "no file \(resource)"))
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
        run.ranges.append(RangeCheck(segment: segment, range: range, url: url, size: size, file: file, folder: folder))
      }
      // An I-frame playlist names ranges of segments its parent playlist already
      // checks whole; ranges of one file (single-file packages) are not decrypted yet.
      guard !playlist.iFramesOnly, segment.byteRange == nil else { continue }
      run.segments += 1
      run.bytes += size
      inspected[inspected.count - 1].facts = checkBytes(
        segment, url: url, size: size, file: file, folder: folder, run: &run)
    }
    if !playlist.iFramesOnly {
      run.findings += BitstreamRules.media(inspected, file: file)
      run.inspected[file] = inspected
    }
    guard complete, let target = playlist.targetDuration, target >= 1, !playlist.iFramesOnly else { return nil }
    return Measured(samples: samples, targetDuration: target)
  }

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
    _ segment: VerifiedMediaPlaylist.Segment, url: URL, size: Int, file: String, folder: String, run: inout Run
  ) -> SegmentMediaFacts? {
    let container = SegmentContainer.of(uri: segment.uri, hasMap: segment.mapURI != nil)
    func finding(_ rule: VerifyRule, _ detail: String) {
      run.findings.append(Finding(rule, file: file, line: segment.line, segment: segment.uri, detail: detail))
      run.brokenSegments.insert(url.standardizedFileURL.path)
    }
    let keyBytes = segment.key.flatMap { run.keys.bytes(for: $0, file: file, folder: folder) }
    switch segment.key?.method {
    case nil, "SAMPLE-AES":
      // SAMPLE-AES leaves the transport stream's packet structure clear, and
      // its NAL unit headers and slice headers: without the key only the
      // payloads' decryption is not checked (key.unavailable says so).
      if container == .fragmentedMP4 {
        return inspectFragment(url, segment: segment, folder: folder, key: keyBytes, run: &run)
      }
      guard container == .transportStream else { return nil }
      let checker = keyBytes.flatMap { key in
        segment.effectiveIV.flatMap { try? SampleAESPayloadChecker(key: key, iv: $0) }
      }
      var inspector = TransportStreamInspector(checker: checker)
      var scanner = TransportStreamScanner()
      guard
        (try? Self.stream(
          url,
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
      let problem = decrypt(url, key: keyBytes, iv: iv, cipher: run.cipher, container: container) { clear in
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

  /// An I-frame range of an AES-128 segment, decrypted as a client does,
  /// or of a clear MPEG-TS segment; its picture is checked.
  private func checkRange(_ check: RangeCheck, run: inout Run) {
    let segment = check.segment
    let container = SegmentContainer.of(uri: segment.uri, hasMap: segment.mapURI != nil)
    func finding(_ rule: VerifyRule, _ detail: String) {
      run.findings.append(Finding(rule, file: check.file, line: segment.line, segment: segment.uri, detail: detail))
    }
    let clear: ArraySlice<UInt8>
    if segment.key == nil {
      guard container == .transportStream, let bytes = readRange(check) else { return }
      clear = bytes
    } else {
      guard let key = segment.key, key.method == "AES-128",
        let keyBytes = run.keys.bytes(for: key, file: check.file, folder: check.folder), let iv = segment.effectiveIV
      else { return }
      if let problem = ByteRangeDecryption.problem(
        url: check.url, range: check.range, fileSize: check.size, key: keyBytes, iv: iv, container: container,
        cipher: run.cipher)
      {
        finding(VerifyRules.iFrameRangeInvalid, problem)
        return
      }
      guard container == .transportStream,
        case .success(let bytes) = ByteRangeDecryption.clearBytes(
          url: check.url, range: check.range, fileSize: check.size, key: keyBytes, iv: iv, cipher: run.cipher)
      else { return }
      clear = bytes
    }
    if let problem = IFramePictureCheck.transportStreamProblem(clear) {
      finding(VerifyRules.iFrameNotOnePicture, problem)
    }
  }

  /// The bytes of a clear segment's range; nil when they cannot be read.
  private func readRange(_ check: RangeCheck) -> ArraySlice<UInt8>? {
    guard check.range.offset >= 0, check.range.length > 0, check.range.offset + check.range.length <= check.size,
      let handle = try? FileHandle(forReadingFrom: check.url)
    else { return nil }
    defer { try? handle.close() }
    guard (try? handle.seek(toOffset: UInt64(check.range.offset))) != nil,
      let data = try? handle.read(upToCount: check.range.length), data.count == check.range.length
    else { return nil }
    return [UInt8](data)[...]
  }

  /// Decrypts piece by piece into the container's scanner; what is wrong, or nil.
  private func decrypt(
    _ url: URL, key: [UInt8], iv: [UInt8], cipher: AES128CBC, container: SegmentContainer,
    inspect: (ArraySlice<UInt8>) -> Void
  ) -> String? {
    var scanner = container.scanner
    var clear: [UInt8] = []
    do {
      try cipher.start(key: key, iv: iv, encrypt: false, padding: true)
      try Self.stream(url) { piece in
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

  static let readSize = 1 << 20

  /// Feeds a file to `consume` in pieces of 1 MiB, read into one reused buffer.
  private static func stream(_ url: URL, _ consume: ([UInt8]) throws -> Void) throws {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    var buffer = [UInt8](repeating: 0, count: readSize)
    while true {
      let count = buffer.withUnsafeMutableBytes { raw -> Int in
        guard let base = raw.baseAddress else { return 0 }
        return read(handle.fileDescriptor, base, raw.count)
      }
      guard count >= 0 else { throw VerifyError(description: "\(url.path): read failed (errno \(errno))") }
      guard count > 0 else { return }
      try consume(count == buffer.count ? buffer : Array(buffer[0..<count]))
    }
  }

  private func readPlaylist(_ path: String) -> [UInt8]? {
    let url = root.appendingPathComponent(VerifyPaths.stripQuery(path))
    return try? SmallFile.readRegular(url.path, limit: PackageFiles.playlistLimit)
  }

  /// The size of a regular file; nil for anything else, so that a named pipe
  /// (whose open or reads wait for a writer) or a device is never opened.
  private func fileSize(_ url: URL) -> Int? {
    var info = stat()
    guard stat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    return Int(info.st_size)
  }

}
