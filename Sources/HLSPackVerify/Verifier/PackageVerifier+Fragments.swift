import Foundation
import HLSPackCore
import HLSPackCrypto

import HLSPackMedia

extension PackageVerifier {
  /// The initialization section at `resource` (a path from the package
  /// root), or at `range` of it (EXT-X-MAP's BYTERANGE), read and parsed
  /// once per run; nil when it cannot be, with why in
  /// `run.facts.initSectionProblems` (under `sectionName`).
  func initSection(_ resource: String, range: (length: Int, offset: Int)? = nil, run: inout Run)
    -> FragmentedInitSection?
  {
    let name = Self.sectionName(resource, range: range)
    if let known = run.facts.initSections[name] { return known }
    var parsed: FragmentedInitSection?
    do {
      parsed = try FragmentedInitSection(try readSection(resource, range: range))
    } catch let failure as SourceFailure {
      run.facts.initSectionProblems[name] = failure
    } catch {
      run.facts.initSectionProblems[name] = .unreadable("(not an initialization section: \(error))")
    }
    run.facts.initSections[name] = .some(parsed)
    return parsed
  }

  /// How a section is known in a run's facts: its resource, and its range in it.
  static func sectionName(_ resource: String, range: (length: Int, offset: Int)?) -> String {
    range.map { "\(resource) (BYTERANGE \($0.length)@\($0.offset))" } ?? resource
  }

  func readSection(
    _ resource: String, range: (length: Int, offset: Int)?
  ) throws(SourceFailure) -> [UInt8] {
    guard let range else { return try source.readWhole(resource, limit: Self.initSectionLimit) }
    guard range.length <= Self.initSectionLimit, range.offset <= Int.max - range.length else {
      throw .unreadable("(its BYTERANGE \(range.length)@\(range.offset) is beyond an initialization section's size)")
    }
    return try source.read(resource, range: range.offset..<(range.offset + range.length))
  }

  static let initSectionLimit = 16 << 20
  /// A media segment read whole for its boxes; larger ones are left unchecked.
  static let fragmentLimit = 256 << 20

  /// A clear or `cbcs` fMP4 segment, read whole (one segment at a time) and
  /// decrypted with `key` when its tracks are protected; nil when its
  /// initialization section cannot be read (a finding of its own says so).
  func inspectFragment(
    _ resource: String, size: Int, segment: VerifiedMediaPlaylist.Segment, folder: String, key: [UInt8]?,
    run: inout Run
  ) throws(SourceFailure) -> SegmentMediaFacts? {
    guard let map = segment.mapURI,
      let section = initSection(
        URIReference.fromPackageRoot(map, writtenIn: folder), range: segment.mapRange, run: &run)
    else { return nil }
    var bytes: [UInt8]
    if let range = segment.byteRange {
      bytes = try source.read(resource, range: range.offset..<(range.offset + range.length))
    } else {
      bytes = try source.readWhole(resource, limit: Self.fragmentLimit)
    }
    guard bytes.count == size else { throw Self.sizeMismatch(atLeast: bytes.count, size: size) }
    let cipher = key.flatMap { try? CBCSCipher(key: $0, encrypt: false) }
    return FragmentInspector.inspect(&bytes, initSection: section, cipher: cipher) { annexB, hevc in
      StandaloneDecodeCheck.problem(annexB, codec: hevc ? .hevc : .h264)
    }
  }
}

/// `cbcs` decryption for `FragmentInspector`: the packager's own chain, run backwards.
extension CBCSCipher: CBCSChainDecrypting {
  public func decryptChain(_ bytes: inout [UInt8], runs: [Range<Int>], iv: [UInt8]) throws {
    try processChain(&bytes, runs: runs, iv: iv)
  }
}

extension PackageVerifier {
  /// The initialization section of `segment`'s EXT-X-MAP (or its BYTERANGE):
  /// there, inside the package, readable and parsed (decrypted first when an
  /// AES-128 key applies to it), its sample descriptions checked; each failure a finding.
  func checkMap(_ segment: VerifiedMediaPlaylist.Segment, map: String, folder: String, file: String, run: inout Run) {
    let line = segment.line
    let resource = URIReference.fromPackageRoot(map, writtenIn: folder)
    do {
      _ = try source.size(resource)
    } catch {
      run.findings.append(
        Self.accessFinding(
          error, path: resource, otherwise: VerifyRules.segmentMissing, file: file, line: line, segment: map,
          note: " (EXT-X-MAP)"))
      return
    }
    if let key = segment.mapKey, key.method == "AES-128" {
      return checkEncryptedMap(segment, key: key, resource: resource, folder: folder, file: file, run: &run)
    }
    let range = segment.mapRange
    guard let section = initSection(resource, range: range, run: &run) else {
      let failure = run.facts.initSectionProblems[Self.sectionName(resource, range: range)] ?? .unreadable("")
      run.findings.append(
        Self.accessFinding(
          failure, path: resource, otherwise: VerifyRules.segmentUnreadable, file: file, line: line, segment: map,
          note: " (EXT-X-MAP)"))
      return
    }
    if let problem = section.sampleDescriptionProblem {
      run.findings.append(
        Finding(VerifyRules.segmentSampleDescriptions, file: file, line: line, segment: map, detail: problem))
    }
  }
}
