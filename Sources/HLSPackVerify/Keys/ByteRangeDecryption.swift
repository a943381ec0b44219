import Foundation
import HLSPackCore

import HLSPackCrypto

/// An I-frame entry of a whole-segment AES-128 package names a byte range
/// inside an encrypted segment. A client decrypts it as RFC 8216bis §6.3.6
/// says: from the 16-byte block holding its first byte, with the block before
/// as the IV (the segment's IV for the first block), and without padding
/// unless the range reaches the end of the segment.
enum ByteRangeDecryption {
  /// What is wrong with the clear bytes of `range` of the segment at `path` of `source`, or nil.
  static func problem(
    source: any PackageSource, path: String, range: (length: Int, offset: Int), fileSize: Int, key: [UInt8],
    iv: [UInt8], container: SegmentContainer, cipher: AES128CBC
  ) -> String? {
    let clear: ArraySlice<UInt8>
    switch clearBytes(source: source, path: path, range: range, fileSize: fileSize, key: key, iv: iv, cipher: cipher) {
    case .success(let bytes): clear = bytes
    case .failure(let problem): return problem.description
    }
    guard var scanner = container == .fragmentedMP4 ? FragmentScanner(allowsCutLastBox: true) : container.scanner else {
      return nil
    }
    scanner.consume(clear)
    return scanner.finish().map { "decrypted range \(range.length)@\(range.offset) is not \(container.name): \($0)" }
  }

  struct RangeProblem: Error, CustomStringConvertible {
    var description: String
  }

  /// The clear bytes of `range`, decrypted as a client does.
  static func clearBytes(
    source: any PackageSource, path: String, range: (length: Int, offset: Int), fileSize: Int, key: [UInt8],
    iv: [UInt8], cipher: AES128CBC
  ) -> Result<ArraySlice<UInt8>, RangeProblem> {
    func problem(_ text: String) -> Result<ArraySlice<UInt8>, RangeProblem> {
      .failure(RangeProblem(description: text))
    }
    let block = AES128CBC.blockSize
    guard range.length > 0, range.offset >= 0, range.length <= fileSize, range.offset <= fileSize - range.length else {
      return problem("range \(range.length)@\(range.offset) lies outside the \(fileSize)-byte segment")
    }
    guard fileSize % block == 0 else { return problem("the segment is not a whole number of 16-byte blocks") }
    let start = range.offset / block * block
    let readFrom = max(start - block, 0)
    let end = min((range.offset + range.length + block - 1) / block * block, fileSize)
    guard let bytes = try? source.read(path, range: readFrom..<end), bytes.count == end - readFrom else {
      return problem("cannot read bytes \(readFrom)..<\(end)")
    }
    let chainIV = start == 0 ? iv : Array(bytes[0..<block])
    let cipherText = Array(bytes[(start - readFrom)...])
    let clear: [UInt8]
    do {
      clear =
        end == fileSize
        ? try cipher.decryptPadded(cipherText, key: key, iv: chainIV)
        : try cipher.decryptBlocks(cipherText, key: key, iv: chainIV)
    } catch {
      return problem("PKCS#7 padding invalid at the end of the segment")
    }
    let first = range.offset - start
    guard first + range.length <= clear.count else { return problem("the range runs into the segment's padding") }
    return .success(clear[first..<(first + range.length)])
  }
}
