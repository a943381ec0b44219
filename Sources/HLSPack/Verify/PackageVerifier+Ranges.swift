import Foundation
import HLSPackCore
import HLSPackCrypto

/// I-frame playlist entries: byte ranges of segments, read as a client reads them.
extension PackageVerifier {
  /// An I-frame range of an AES-128 segment, decrypted as a client does,
  /// or of a clear MPEG-TS segment; its picture is checked.
  func checkRange(_ check: RangeCheck, run: inout Run) {
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
        source: source, path: check.resource, range: check.range, fileSize: check.size, key: keyBytes, iv: iv,
        container: container, cipher: run.cipher)
      {
        finding(VerifyRules.iFrameRangeInvalid, problem)
        return
      }
      guard container == .transportStream,
        case .success(let bytes) = ByteRangeDecryption.clearBytes(
          source: source, path: check.resource, range: check.range, fileSize: check.size, key: keyBytes, iv: iv,
          cipher: run.cipher)
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
      let bytes = try? source.read(
        check.resource, range: check.range.offset..<(check.range.offset + check.range.length))
    else { return nil }
    return bytes[...]
  }
}
