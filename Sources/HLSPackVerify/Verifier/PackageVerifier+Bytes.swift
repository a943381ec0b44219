import Foundation
import HLSPackCore

import HLSPackCrypto

/// A media segment's bytes: read (and decrypted) as a client reads them, and
/// inspected. A segment that cannot be read to its end is a finding, never a
/// silent skip.
extension PackageVerifier {
  /// Checks a segment's bytes; what its clear or decrypted bitstream says,
  /// nil when it could not be read to the end.
  func checkBytes(
    _ segment: VerifiedMediaPlaylist.Segment, resource: String, size: Int, file: String, folder: String,
    run: inout Run
  ) -> SegmentMediaFacts? {
    let container = SegmentContainer.of(uri: segment.uri, hasMap: segment.mapURI != nil)
    func finding(_ rule: VerifyRule, _ detail: String) {
      run.findings.append(Finding(rule, file: file, line: segment.line, segment: segment.uri, detail: detail))
      run.reads.broken.insert(resource)
    }
    func unreadable(_ error: any Error) {
      let failure = error as? SourceFailure ?? .unreadable("(\(error))")
      run.findings.append(
        Self.accessFinding(
          failure, path: resource, otherwise: VerifyRules.segmentUnreadable, file: file, line: segment.line,
          segment: segment.uri))
      run.reads.broken.insert(resource)
    }
    let keyBytes = segment.key.flatMap { run.keys.store.bytes(for: $0, file: file, folder: folder) }
    switch segment.key?.method {
    case nil, "SAMPLE-AES":
      // SAMPLE-AES leaves the transport stream's packet structure clear, and
      // its NAL unit headers and slice headers: without the key only the
      // payloads' decryption is not checked (key.unavailable says so).
      if container == .fragmentedMP4 {
        guard size <= Self.fragmentLimit else { return nil }
        do {
          return try inspectFragment(resource, size: size, segment: segment, folder: folder, key: keyBytes, run: &run)
        } catch {
          unreadable(error)
          return nil
        }
      }
      guard container == .transportStream else { return nil }
      return checkTransportStream(
        resource, size: size, segment: segment, key: keyBytes, finding: finding, unreadable: unreadable)
    case "AES-128":
      guard let keyBytes, let iv = segment.effectiveIV else { return nil }
      guard size > 0, size % AES128CBC.blockSize == 0 else {
        finding(VerifyRules.segmentAES128Length, "\(size) bytes")
        return nil
      }
      var inspector = container == .transportStream ? TransportStreamInspector(checker: nil) : nil
      let section = segment.mapURI.flatMap {
        initSection(URIReference.fromPackageRoot($0, writtenIn: folder), range: segment.mapRange, run: &run)
      }
      var fragment: [UInt8] = []
      let problem: String?
      do {
        problem = try decrypt(
          resource, range: segment.byteRange, size: size, key: keyBytes, iv: iv, cipher: run.cipher,
          container: container
        ) {
          clear in
          inspector?.consume(clear)
          if section != nil { fragment += clear }
        }
      } catch {
        unreadable(error)
        return nil
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

  /// A clear or SAMPLE-AES MPEG-TS segment, streamed: its packets, and with
  /// `key` its SAMPLE-AES payloads.
  private func checkTransportStream(
    _ resource: String, size: Int, segment: VerifiedMediaPlaylist.Segment, key: [UInt8]?,
    finding: (VerifyRule, String) -> Void, unreadable: (any Error) -> Void
  ) -> SegmentMediaFacts? {
    let checker = key.flatMap { key in
      segment.effectiveIV.flatMap { iv in sampleAES.flatMap { try? SampleAESPayloadChecker($0, key: key, iv: iv) } }
    }
    var inspector = TransportStreamInspector(checker: checker)
    var scanner = TransportStreamScanner()
    do {
      try streamSegment(resource, range: segment.byteRange, size: size) {
        scanner.consume($0[...])
        inspector.consume($0[...])
      }
    } catch {
      unreadable(error)
      return nil
    }
    if let problem = scanner.finish() {
      finding(VerifyRules.segmentTSSyncLost, problem)
      return nil
    }
    return inspector.finish()
  }

  /// Decrypts piece by piece into the container's scanner; what is wrong, or
  /// nil; throws what reading the resource throws.
  private func decrypt(
    _ resource: String, range: (length: Int, offset: Int)?, size: Int, key: [UInt8], iv: [UInt8], cipher: AES128CBC, container: SegmentContainer,
    inspect: (ArraySlice<UInt8>) -> Void
  ) throws(SourceFailure) -> String? {
    var scanner = container.scanner
    var clear: [UInt8] = []
    do {
      try cipher.start(key: key, iv: iv, encrypt: false, padding: true)
      try streamSegment(resource, range: range, size: size) { piece in
        let produced = try cipher.update(piece, into: &clear)
        scanner?.consume(clear[0..<produced])
        inspect(clear[0..<produced])
      }
    } catch let failure as SourceFailure {
      throw failure
    } catch {
      return "cannot decrypt: \(error)"
    }
    guard let last = try? cipher.finish() else { return "PKCS#7 padding invalid after decryption" }
    scanner?.consume(last[...])
    inspect(last[...])
    return scanner?.finish().map { "decrypted bytes are not \(container.name): \($0)" }
  }

  /// Streams the segment: the whole resource, or its `range` (EXT-X-BYTERANGE)
  /// read a piece at a time.
  private func streamSegment(
    _ resource: String, range: (length: Int, offset: Int)?, size: Int, _ consume: ([UInt8]) throws -> Void
  ) throws {
    guard let range else { return try streamWhole(resource, size: size, consume) }
    var offset = range.offset
    let end = range.offset + range.length
    while offset < end {
      let next = min(end, offset + Self.rangePiece)
      try consume(try source.read(resource, range: offset..<next))
      offset = next
    }
  }

  /// How much of a range is read at a time.
  static let rangePiece = 1 << 20

  /// Streams the resource, which must give the `size` bytes its size said
  /// (a server's HEAD may promise other bytes than its GET sends).
  private func streamWhole(_ resource: String, size: Int, _ consume: ([UInt8]) throws -> Void) throws {
    var count = 0
    try source.stream(resource) { piece in
      count += piece.count
      guard count <= size else { throw Self.sizeMismatch(atLeast: count, size: size) }
      try consume(piece)
    }
    guard count == size else { throw Self.sizeMismatch(atLeast: count, size: size) }
  }

  static func sizeMismatch(atLeast count: Int, size: Int) -> SourceFailure {
    .unreadable("(its body has \(count) bytes, its size said \(size))")
  }
}
