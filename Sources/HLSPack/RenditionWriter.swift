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
  /// Only with `segment.checksums`.
  var sha256: String?
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

/// Receives one rendition's segments from its muxing thread, part by part:
/// decides each segment's key and IV there, and passes the parts to a writer
/// thread of its own that encrypts them with AES-128 (whole segment, PKCS#7;
/// CBC carries on from part to part), writes and records the segment, so that
/// work overlaps with muxing and no segment is ever held whole.
/// SAMPLE-AES is applied before the bytes arrive (TS: by the muxer) or here on
/// the muxing thread (fMP4 `cbcs`: samples in place, init segment rewritten).
final class RenditionWriter: SegmentSink, SampleEncryptorProviding, @unchecked Sendable {
  let name: String
  let folder: URL
  private let container: Container
  private let keying: SegmentKeying?
  private let checksums: Bool
  /// SAMPLE-AES in MPEG-TS: the muxer encrypts samples before muxing.
  let sampleEncryptor: SampleEncryptor?
  /// SAMPLE-AES in fMP4 (`cbcs`): the writer protects the init segment and each fragment.
  private let cbcs: CBCSRenditionProtection?
  /// Read only after `close()`: the writer thread appends to it.
  private(set) var records: [SegmentRecord] = []
  /// The fMP4 initialization segment's file name; it is never encrypted.
  private(set) var initialization: String?

  /// What the muxing thread hands to the writer thread, in order.
  private enum WriterJob {
    /// A new segment file; with whole-segment AES-128, its key and IV.
    case open(uri: String, wholeSegment: SegmentKeying.Material?)
    case bytes([UInt8])
    /// The segment is complete: pad, close and record it.
    case close(SegmentRecord)
  }

  /// Two parts at most wait for the writer thread: memory stays flat however
  /// long the input and however large its segments.
  private let pending = WorkQueue<WriterJob>(capacity: 2)
  private let done = DispatchSemaphore(value: 0)
  private var failure: Error?

  // Muxing thread.
  /// Index of the segment whose bytes are arriving.
  private var index = 0
  /// The writer thread has opened segment `index`.
  private var opened = false
  /// cbcs: the fragment's bytes, protected whole once it is complete.
  private var fragment: [UInt8] = []

  // Writer thread.
  private var file: FileWriter?
  private let cipher: AES128CBC
  private var encrypting = false
  private var ciphertext: [UInt8] = []
  private var digest: SHA256Stream?
  private var written = 0

  init(
    name: String, asset: String, assetFolder: URL, container: Container, encryption: EncryptionSettings, keys: KeyRing?,
    checksums: Bool
  ) throws {
    self.name = name
    self.container = container
    self.checksums = checksums
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
          try perform(job)
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

  private func enqueue(_ job: WriterJob) throws {
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
    try writeFile(bytes, to: folder.appendingPathComponent("init.mp4"))
    initialization = "init.mp4"
  }

  private var uri: String { String(format: "segment_%05d.", index) + container.segmentExtension }

  func acceptBytes(_ bytes: [UInt8]) throws {
    if cbcs != nil {
      fragment += bytes
      return
    }
    try open()
    try enqueue(.bytes(bytes))
  }

  private func open() throws {
    guard !opened else { return }
    opened = true
    let material = try keying?.material(for: index)
    try enqueue(.open(uri: uri, wholeSegment: sampleEncryptor == nil && cbcs == nil ? material : nil))
  }

  func accept(_ segment: MediaSegment) throws {
    let material = try keying?.material(for: index)
    var keyframes = segment.keyframes
    if let cbcs {
      let protected: [UInt8]
      do {
        protected = try cbcs.protect(fragment, index: index)
      } catch {
        throw PackError.crypto("\(name)/\(uri): \(error)")
      }
      fragment.removeAll(keepingCapacity: true)
      // The moof grew: measure the I-frame range (moof + first sample) again.
      keyframes = FragmentLayout.firstSampleEnd(protected).map {
        [KeyframeRange(offset: 0, length: $0, ptsTicks: segment.keyframes.first?.ptsTicks ?? segment.startTicks)]
      } ?? []
      try open()
      try enqueue(.bytes(protected))
    }
    // SAMPLE-AES in TS is encrypted by the muxer: a segment that skipped it must never be published.
    if material != nil, let encryptor = sampleEncryptor as? SampleAESStreamEncryptor, !encryptor.adjusted.contains(index) {
      throw PackError.crypto("\(name)/\(uri): the segment reached the writer without SAMPLE-AES encryption")
    }
    try open()
    // SAMPLE-AES in TS changes the PMT's stream types after a clear lead (conformance B10).
    let discontinuity = sampleEncryptor != nil && index > 0 && index == keying?.encryption.clearLeadSegments
    let record = SegmentRecord(
      uri: uri, startTicks: segment.startTicks, durationTicks: segment.durationTicks, byteCount: 0, sha256: nil,
      key: material?.tag ?? .none, keyID: material?.key.content.idHex, keyFile: material?.key.file,
      period: keying?.period(of: index) ?? 0, iv: material?.iv, keyframes: keyframes, discontinuity: discontinuity)
    try enqueue(.close(record))
    index += 1
    opened = false
  }

  /// On the writer thread.
  private func perform(_ job: WriterJob) throws {
    switch job {
    case .open(let uri, let wholeSegment):
      file = try FileWriter(creating: folder.appendingPathComponent(uri))
      written = 0
      digest = checksums ? try SHA256Stream() : nil
      encrypting = wholeSegment != nil
      if let wholeSegment {
        try crypto(uri) { try cipher.start(key: wholeSegment.key.content.bytes, iv: wholeSegment.iv) }
      }
    case .bytes(var bytes):
      if encrypting {
        let count = try crypto(file?.url.lastPathComponent) { try cipher.update(bytes, into: &ciphertext) }
        try output(ciphertext[..<count])
      } else {
        try output(bytes[...])
      }
      SegmentBufferPool.shared.recycle(&bytes)
    case .close(var record):
      if encrypting { try output(try crypto(record.uri) { try cipher.finish() }[...]) }
      try file?.close()
      file = nil
      record.byteCount = written
      record.sha256 = try digest.map { Hex.encode(try $0.finish()) }
      records.append(record)
    }
  }

  private func output(_ bytes: ArraySlice<UInt8>) throws {
    guard let file else { throw PackError.output(path: folder.path, reason: "bytes arrived outside a segment") }
    try bytes.withUnsafeBytes { raw in
      try file.write(raw)
      try digest?.update(raw)
    }
    written += bytes.count
  }

  private func crypto<T>(_ uri: String?, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch {
      throw PackError.crypto("\(name)/\(uri ?? "?"): \(error)")
    }
  }
}
