import Foundation
import HLSPackCore

import HLSPackCrypto

/// I-frame playlist entries: byte ranges of segments, read as a client reads them.
extension PackageVerifier {
  /// An I-frame range of a clear, SAMPLE-AES, `cbcs` or AES-128 segment
  /// (decrypted as a client does); its picture is checked.
  func checkRange(_ check: RangeCheck, run: inout Run) {
    let segment = check.segment
    let container = SegmentContainer.of(uri: segment.uri, hasMap: segment.mapURI != nil)
    func finding(_ rule: VerifyRule, _ detail: String) {
      run.findings.append(Finding(rule, file: check.file, line: segment.line, segment: segment.uri, detail: detail))
    }
    guard container == .transportStream || container == .fragmentedMP4 else { return }
    let clear: ArraySlice<UInt8>
    switch segment.key?.method {
    case nil:
      guard let bytes = readRange(check) else { return }
      clear = bytes
    case "SAMPLE-AES":
      // cbcs leaves every box clear, and SAMPLE-AES in MPEG-TS every packet,
      // PES header and NAL unit header (Apple's MPEG-2 Stream Encryption
      // Format for HTTP Live Streaming, §2): the check reads no sample's bytes.
      guard let bytes = readRange(check) else { return }
      clear = bytes
    case "AES-128":
      guard let key = segment.key, let keyBytes = run.keys.store.bytes(for: key, file: check.file, folder: check.folder),
        let iv = segment.effectiveIV
      else { return }
      if let problem = ByteRangeDecryption.problem(
        source: source, path: check.resource, range: check.range, fileSize: check.size, key: keyBytes, iv: iv,
        container: container, cipher: run.cipher)
      {
        finding(VerifyRules.iFrameRangeInvalid, problem)
        return
      }
      guard
        case .success(let bytes) = ByteRangeDecryption.clearBytes(
          source: source, path: check.resource, range: check.range, fileSize: check.size, key: keyBytes, iv: iv,
          cipher: run.cipher)
      else { return }
      clear = bytes
    default:
      return
    }
    if let problem = pictureProblem(clear, container: container, check: check, run: &run) {
      finding(VerifyRules.iFrameNotOnePicture, problem)
    }
  }

  /// Why a range's clear bytes are not one keyframe; nil when they are, or
  /// when an fMP4 range's initialization section cannot be read.
  private func pictureProblem(
    _ clear: ArraySlice<UInt8>, container: SegmentContainer, check: RangeCheck, run: inout Run
  ) -> String? {
    guard container == .fragmentedMP4 else { return IFramePictureCheck.transportStreamProblem(clear) }
    guard let map = check.segment.mapURI,
      let section = initSection(
        URIReference.fromPackageRoot(map, writtenIn: check.folder), range: check.segment.mapRange, run: &run)
    else { return nil }
    return IFramePictureCheck.fragmentProblem(Array(clear), initSection: section)
  }

  /// The bytes of a clear segment's range; nil when they cannot be read.
  private func readRange(_ check: RangeCheck) -> ArraySlice<UInt8>? {
    guard check.range.offset >= 0, check.range.length > 0, check.range.offset <= check.size - check.range.length,
      let bytes = try? source.read(
        check.resource, range: check.range.offset..<(check.range.offset + check.range.length))
    else { return nil }
    return bytes[...]
  }
}
