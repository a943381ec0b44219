import Foundation
import HLSPackCore
import HLSPackCrypto

/// One written segment: what the playlist and the report need, nothing more.
struct SegmentRecord: Sendable {
  var uri: String
  var startTicks: Int64
  var durationTicks: Int64
  var byteCount: Int
  var sha256: String
  var key: KeyTag
  var keyID: String?
}

/// Receives one rendition's segments on its worker thread: encrypts each one
/// (AES-128-CBC, PKCS#7, its own IV), writes it and records it.
final class RenditionWriter: SegmentSink, @unchecked Sendable {
  let name: String
  let folder: URL
  private let key: AssetKey?
  private let ivMode: IVMode
  private let cipher: AES128CBC
  private(set) var records: [SegmentRecord] = []

  init(name: String, assetFolder: URL, key: AssetKey?, ivMode: IVMode) throws {
    self.name = name
    folder = assetFolder.appendingPathComponent(name)
    self.key = key
    self.ivMode = ivMode
    cipher = try AES128CBC()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  func accept(_ segment: MediaSegment) throws {
    let index = records.count
    let uri = String(format: "segment_%05d.ts", index)
    var bytes = segment.bytes
    var tag = KeyTag.none
    if let key {
      let iv = ivMode == .random ? try SecureRandom.bytes(16) : SegmentIV.sequence(UInt64(index))
      do {
        bytes = try cipher.encryptPadded(bytes, key: key.key.bytes, iv: iv)
      } catch {
        throw PackError.crypto("\(name)/\(uri): \(error)")
      }
      tag = KeyTag(method: .aes128, uri: key.uri, iv: ivMode == .random ? iv : nil)
    }
    let url = folder.appendingPathComponent(uri)
    guard FileManager.default.createFile(atPath: url.path, contents: Data(bytes)) else {
      throw PackError.output(path: url.path, reason: "cannot write the segment")
    }
    records.append(
      SegmentRecord(
        uri: uri, startTicks: segment.startTicks, durationTicks: segment.durationTicks, byteCount: bytes.count,
        sha256: Hex.encode(try Digest.sha256(bytes)), key: tag, keyID: key?.key.idHex))
  }
}
