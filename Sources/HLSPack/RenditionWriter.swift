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
  /// EXT-X-DISCONTINUITY before this segment.
  var discontinuity: Bool
}

/// Receives one rendition's segments on its worker thread: encrypts each one
/// with AES-128 (whole segment, PKCS#7, its own IV), or in fMP4 with SAMPLE-AES
/// `cbcs` (samples in place, init segment rewritten), unless SAMPLE-AES in TS
/// already encrypted its samples; writes it and records it.
final class RenditionWriter: SegmentSink, SampleEncryptorProviding, @unchecked Sendable {
  let name: String
  let folder: URL
  private let container: Container
  private let keying: SegmentKeying?
  private let cipher: AES128CBC
  /// SAMPLE-AES in MPEG-TS: the muxer encrypts samples before muxing.
  let sampleEncryptor: SampleEncryptor?
  /// SAMPLE-AES in fMP4 (`cbcs`): the writer protects the init segment and each fragment.
  private let cbcs: CBCSRenditionProtection?
  private(set) var records: [SegmentRecord] = []
  /// The fMP4 initialization segment's file name; it is never encrypted.
  private(set) var initialization: String?

  init(
    name: String, asset: String, assetFolder: URL, container: Container, encryption: EncryptionSettings, keys: KeyRing?
  ) throws {
    self.name = name
    self.container = container
    folder = assetFolder.appendingPathComponent(name)
    let keying = keys.map { SegmentKeying(rendition: name, asset: asset, encryption: encryption, keys: $0) }
    self.keying = keying
    let sampleAES = encryption.method == .sampleAES
    sampleEncryptor = sampleAES && container == .ts ? keying.map(SampleAESStreamEncryptor.init) : nil
    cbcs = sampleAES && container == .fmp4 ? keying.map(CBCSRenditionProtection.init) : nil
    cipher = try AES128CBC()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  func acceptInitialization(_ bytes: [UInt8]) throws {
    var bytes = bytes
    if let cbcs {
      do {
        bytes = try cbcs.protectInitialization(bytes)
      } catch {
        throw PackError.crypto("\(name)/init.mp4: \(error)")
      }
    }
    try write(bytes, to: "init.mp4")
    initialization = "init.mp4"
  }

  func accept(_ segment: MediaSegment) throws {
    let index = records.count
    let uri = String(format: "segment_%05d.", index) + container.segmentExtension
    var bytes = segment.bytes
    let material = try keying?.material(for: index)
    var keyframes = segment.keyframes
    if let cbcs {
      do {
        bytes = try cbcs.protect(bytes, index: index)
      } catch {
        throw PackError.crypto("\(name)/\(uri): \(error)")
      }
      // The moof grew: measure the I-frame range (moof + first sample) again.
      keyframes = FragmentLayout.firstSampleEnd(bytes).map {
        [KeyframeRange(offset: 0, length: $0, ptsTicks: segment.keyframes.first?.ptsTicks ?? segment.startTicks)]
      } ?? []
    } else if let material, sampleEncryptor == nil {
      do {
        bytes = try cipher.encryptPadded(bytes, key: material.key.content.bytes, iv: material.iv)
      } catch {
        throw PackError.crypto("\(name)/\(uri): \(error)")
      }
    }
    // SAMPLE-AES in TS changes the PMT's stream types after a clear lead (conformance B10).
    // SAMPLE-AES in TS is encrypted by the muxer: a segment that skipped it must never be published.
    if material != nil, let encryptor = sampleEncryptor as? SampleAESStreamEncryptor, !encryptor.finished.contains(index) {
      throw PackError.crypto("\(name)/\(uri): the segment reached the writer without SAMPLE-AES encryption")
    }
    let discontinuity = sampleEncryptor != nil && index > 0 && index == keying?.encryption.clearLeadSegments
    try write(bytes, to: uri)
    records.append(
      SegmentRecord(
        uri: uri, startTicks: segment.startTicks, durationTicks: segment.durationTicks, byteCount: bytes.count,
        sha256: Hex.encode(try Digest.sha256(bytes)), key: material?.tag ?? .none, keyID: material?.key.content.idHex,
        keyFile: material?.key.file, period: keying?.period(of: index) ?? 0, iv: material?.iv,
        keyframes: keyframes, discontinuity: discontinuity))
  }

  private func write(_ bytes: [UInt8], to name: String) throws {
    let url = folder.appendingPathComponent(name)
    guard FileManager.default.createFile(atPath: url.path, contents: Data(bytes)) else {
      throw PackError.output(path: url.path, reason: "cannot write the segment")
    }
  }
}
