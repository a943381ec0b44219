import Foundation
import HLSPackCore
import HLSPackCrypto

/// One written segment: what the playlist, the report and keys.json need.
struct SegmentRecord: Sendable {
  var uri: String
  var startTicks: Int64
  var durationTicks: Int64
  var byteCount: Int
  var sha256: String
  var key: KeyTag
  var keyID: String?
  var keyFile: String?
  var period: Int
  /// The IV that encrypted the segment, also when the playlist leaves it implicit.
  var iv: [UInt8]?
  var keyframes: [KeyframeRange]
}

/// Receives one rendition's segments on its worker thread: encrypts each one
/// (AES-128-CBC, PKCS#7, with its key period's key and its own IV), writes it
/// and records it.
final class RenditionWriter: SegmentSink, @unchecked Sendable {
  let name: String
  let folder: URL
  private let asset: String
  private let encryption: EncryptionSettings
  private let keys: KeyRing?
  private let cipher: AES128CBC
  private let container: Container
  private(set) var records: [SegmentRecord] = []
  /// The fMP4 initialization segment's file name; it is never encrypted.
  private(set) var initialization: String?

  init(
    name: String, asset: String, assetFolder: URL, container: Container, encryption: EncryptionSettings, keys: KeyRing?
  ) throws {
    self.name = name
    self.asset = asset
    self.container = container
    folder = assetFolder.appendingPathComponent(name)
    self.encryption = encryption
    self.keys = keys
    cipher = try AES128CBC()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  func acceptInitialization(_ bytes: [UInt8]) throws {
    try write(bytes, to: "init.mp4")
    initialization = "init.mp4"
  }

  func accept(_ segment: MediaSegment) throws {
    let index = records.count
    let uri = String(format: "segment_%05d.", index) + container.segmentExtension
    let period = encryption.rotateEvery.map { index / $0 } ?? 0
    var bytes = segment.bytes
    var tag = KeyTag.none
    var used: KeyRing.Key?
    var usedIV: [UInt8]?
    if let keys {
      let key = try keys.key(rendition: name, period: period)
      let iv: [UInt8]
      let written: [UInt8]?
      switch encryption.iv {
      case .random: iv = try keys.randomIV(rendition: name, index: index); written = iv
      case .sequence: iv = SegmentIV.sequence(UInt64(index)); written = nil
      case .fixed(let fixed): iv = fixed; written = fixed
      }
      do {
        bytes = try cipher.encryptPadded(bytes, key: key.content.bytes, iv: iv)
      } catch {
        throw PackError.crypto("\(name)/\(uri): \(error)")
      }
      let values = KeyURITemplate.Values(
        asset: asset, rendition: name, keyID: key.content.idHex, period: period, keyFile: "../\(key.file)")
      tag = KeyTag(
        method: .aes128, uri: encryption.keyURI.render(values), iv: written,
        keyFormat: encryption.keyFormat, keyFormatVersions: encryption.keyFormatVersions)
      used = key
      usedIV = iv
    }
    try write(bytes, to: uri)
    records.append(
      SegmentRecord(
        uri: uri, startTicks: segment.startTicks, durationTicks: segment.durationTicks, byteCount: bytes.count,
        sha256: Hex.encode(try Digest.sha256(bytes)), key: tag, keyID: used?.content.idHex, keyFile: used?.file,
        period: period, iv: usedIV, keyframes: segment.keyframes))
  }

  private func write(_ bytes: [UInt8], to name: String) throws {
    let url = folder.appendingPathComponent(name)
    guard FileManager.default.createFile(atPath: url.path, contents: Data(bytes)) else {
      throw PackError.output(path: url.path, reason: "cannot write the segment")
    }
  }
}
