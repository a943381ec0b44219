import Foundation
import HLSPackCore
import HLSPackCrypto

import HLSPackMedia

extension PackageVerifier {
  /// The initialization section at `resource` (a path from the package
  /// root), read and parsed once per run; nil when it cannot be, with why in
  /// `run.facts.initSectionProblems`.
  func initSection(_ resource: String, run: inout Run) -> FragmentedInitSection? {
    if let known = run.facts.initSections[resource] { return known }
    var parsed: FragmentedInitSection?
    do {
      parsed = try FragmentedInitSection(try source.readWhole(resource, limit: Self.initSectionLimit))
    } catch let failure as SourceFailure {
      run.facts.initSectionProblems[resource] = failure
    } catch {
      run.facts.initSectionProblems[resource] = .unreadable("(not an initialization section: \(error))")
    }
    run.facts.initSections[resource] = .some(parsed)
    return parsed
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
      let section = initSection(URIReference.fromPackageRoot(map, writtenIn: folder), run: &run)
    else { return nil }
    var bytes = try source.readWhole(resource, limit: Self.fragmentLimit)
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
  /// The initialization section of `segment`'s EXT-X-MAP: there, inside the
  /// package, readable and parsed (decrypted first when an AES-128 key
  /// applies to it), its sample descriptions checked; each failure a finding.
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
    guard let section = initSection(resource, run: &run) else {
      let failure = run.facts.initSectionProblems[resource] ?? .unreadable("")
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
