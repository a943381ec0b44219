import Foundation
import HLSPackCore
import HLSPackCrypto
import HLSPackMedia

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

/// Receives one rendition's segments from its muxing thread: decides each
/// segment's key and IV there, then hands the segment to a writer thread of its
/// own that encrypts it with AES-128 (whole segment, PKCS#7), hashes, writes
/// and records it, so that work overlaps with muxing the next segment.
/// SAMPLE-AES is applied before it arrives (TS: by the muxer) or here on the
/// muxing thread (fMP4 `cbcs`: samples in place, init segment rewritten).
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
  /// Read only after `close()`: the writer thread appends to it.
  private(set) var records: [SegmentRecord] = []
  /// The fMP4 initialization segment's file name; it is never encrypted.
  private(set) var initialization: String?
  /// Segments waiting for the writer thread (two at most: memory stays flat).
  private let pending = WorkQueue<() throws -> Void>(capacity: 2)
  private let done = DispatchSemaphore(value: 0)
  private var failure: Error?
  private var accepted = 0

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
    Thread { [self] in
      while let job = pending.take() {
        do {
          try job()
        } catch {
          failure = error
          pending.abort()
        }
      }
      done.signal()
    }.start()
  }

  /// Waits until every segment is written; throws the first failure.
  func close() throws {
    pending.close()
    done.wait()
    if let failure { throw failure }
  }

  private func enqueue(_ job: @escaping () throws -> Void) throws {
    guard pending.put(job) else {
      // The writer thread stopped on an error; report it here, to the muxer.
      done.wait()
      throw failure ?? PackError.output(path: folder.path, reason: "the segment writer stopped")
    }
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
    let index = accepted
    accepted += 1
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
    }
    // SAMPLE-AES in TS is encrypted by the muxer: a segment that skipped it must never be published.
    if material != nil, let encryptor = sampleEncryptor as? SampleAESStreamEncryptor, !encryptor.finished.contains(index) {
      throw PackError.crypto("\(name)/\(uri): the segment reached the writer without SAMPLE-AES encryption")
    }
    // SAMPLE-AES in TS changes the PMT's stream types after a clear lead (conformance B10).
    let discontinuity = sampleEncryptor != nil && index > 0 && index == keying?.encryption.clearLeadSegments
    let wholeSegment = sampleEncryptor == nil && cbcs == nil ? material : nil
    let period = keying?.period(of: index) ?? 0
    let prepared = bytes, ranges = keyframes
    try enqueue { [self] in
      var bytes = prepared
      if let wholeSegment {
        do {
          bytes = try cipher.encryptPadded(bytes, key: wholeSegment.key.content.bytes, iv: wholeSegment.iv)
        } catch {
          throw PackError.crypto("\(name)/\(uri): \(error)")
        }
      }
      try write(bytes, to: uri)
      records.append(
        SegmentRecord(
          uri: uri, startTicks: segment.startTicks, durationTicks: segment.durationTicks, byteCount: bytes.count,
          sha256: Hex.encode(try Digest.sha256(bytes)), key: material?.tag ?? .none, keyID: material?.key.content.idHex,
          keyFile: material?.key.file, period: period, iv: material?.iv, keyframes: ranges,
          discontinuity: discontinuity))
    }
  }

  private func write(_ bytes: [UInt8], to name: String) throws {
    try writeFile(bytes, to: folder.appendingPathComponent(name))
  }
}
