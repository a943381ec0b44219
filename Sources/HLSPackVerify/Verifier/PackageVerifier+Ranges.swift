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
    let aes128: (key: [UInt8], iv: [UInt8])?
    switch segment.key?.method {
    case nil:
      aes128 = nil
    case "SAMPLE-AES":
      // cbcs leaves every box clear, and SAMPLE-AES in MPEG-TS every packet,
      // PES header and NAL unit header (Apple's MPEG-2 Stream Encryption
      // Format for HTTP Live Streaming, §2): the check reads no sample's bytes.
      aes128 = nil
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
      aes128 = (keyBytes, iv)
    default:
      return
    }
    let cipher = run.cipher
    func clearBytes(_ range: (length: Int, offset: Int)) -> ArraySlice<UInt8>? {
      guard let aes128 else { return readRange(range, of: check) }
      guard
        case .success(let bytes) = ByteRangeDecryption.clearBytes(
          source: source, path: check.resource, range: range, fileSize: check.size, key: aes128.key, iv: aes128.iv,
          cipher: cipher)
      else { return nil }
      return bytes
    }
    guard let clear = clearBytes(check.range) else { return }
    let problem: String?
    if container == .transportStream {
      problem = IFramePictureCheck.transportStreamProblem(
        clear, initializationSection: Self.programTables(before: check.range.offset, read: clearBytes))
    } else {
      problem = fragmentProblem(clear, check: check, run: &run)
    }
    if let problem {
      finding(VerifyRules.iFrameNotOnePicture, problem)
    }
  }

  /// How much of a segment's start is read for its PAT and PMT, which open it:
  /// sixteen packets leave room for an SDT and other tables before them.
  static let programTablesSpan = 16 * 188

  /// The PAT and PMT a range that leaves them out is read with (RFC 8216bis
  /// §4.4.3.6): the whole packets right before it when they hold a PAT (the
  /// tables that open its segment inside a single file, where the file's own
  /// start has another IV), else the start of the resource.
  static func programTables(
    before offset: Int, read: ((length: Int, offset: Int)) -> ArraySlice<UInt8>?
  ) -> ArraySlice<UInt8> {
    let span = min(offset, programTablesSpan)
    guard span > 0 else { return [] }
    let packet = 188
    if let before = read((length: span, offset: offset - span)) {
      var start = before.endIndex
      while start - packet >= before.startIndex, before[start - packet] == 0x47 { start -= packet }
      let packets = before[start...]
      let holdsPAT = stride(from: packets.startIndex, to: packets.endIndex, by: packet).contains {
        TransportStreamPacketHeader.pid(packets, at: $0) == 0
      }
      if holdsPAT { return packets }
    }
    return read((length: span, offset: 0)) ?? []
  }

  /// Why an fMP4 range's clear bytes are not one keyframe; nil when they are,
  /// or when the range's initialization section cannot be read.
  private func fragmentProblem(_ clear: ArraySlice<UInt8>, check: RangeCheck, run: inout Run) -> String? {
    guard let map = check.segment.mapURI,
      let section = initSection(
        URIReference.fromPackageRoot(map, writtenIn: check.folder), range: check.segment.mapRange, run: &run)
    else { return nil }
    return IFramePictureCheck.fragmentProblem(Array(clear), initSection: section)
  }

  /// The bytes of `range` of a clear segment; nil when they cannot be read.
  private func readRange(_ range: (length: Int, offset: Int), of check: RangeCheck) -> ArraySlice<UInt8>? {
    guard range.offset >= 0, range.length > 0, range.offset <= check.size - range.length,
      let bytes = try? source.read(check.resource, range: range.offset..<(range.offset + range.length))
    else { return nil }
    return bytes[...]
  }
}
