import Foundation
import HLSPackCore
import HLSPackCrypto
import HLSPackMedia

/// A thread that writes segment files as their parts arrive: it creates the
/// file, encrypts whole-segment AES-128 (CBC carried from part to part, PKCS#7
/// at the end), writes the parts, hashes them when asked, then closes and
/// records it, while the muxing thread goes on with the next parts.
///
/// Encrypting costs nearly as much CPU as muxing copied packets, so when
/// parts pile up for the writer as a segment begins, the muxing thread
/// encrypts that segment itself and hands the CBC run over (its last
/// ciphertext block and the bytes short of a block) once the pile is low
/// again. Measurements and the designs left out: docs/design/segment-writers.md.
///
/// With `segment.single_file` every segment goes on at the end of one file,
/// each recorded with its byte offset; an AES-128 segment is still one CBC run
/// with its own padding, whose IV is the file's last 16 bytes before it (see
/// `chainedIV`), so the writing thread encrypts every segment, in order.
final class SegmentFileWriter: @unchecked Sendable {
  enum Job {
    /// A new segment file; with whole-segment AES-128, its key and IV.
    case open(URL, wholeSegment: SegmentKeying.Material?)
    case bytes([UInt8])
    /// The segment is complete: pad, close and record it.
    case close(SegmentRecord)
  }

  /// A job as queued for the writing thread.
  private enum Queued {
    case open(URL)
    /// From here on the writer encrypts the segment, continuing `run`.
    case encrypt(SegmentCBCRun)
    /// A muxer's part, which the writer encrypts when the segment is its to encrypt.
    case plaintext([UInt8])
    /// The first `count` bytes: the sender's encryption of a part.
    case ciphertext([UInt8], count: Int)
    /// `trailer`: the last block and its padding, when the sender encrypted to the end.
    case close(SegmentRecord, trailer: [UInt8])

    var isPart: Bool {
      switch self {
      case .plaintext, .ciphertext: true
      case .open, .encrypt, .close: false
      }
    }
  }

  private let rendition: String
  private let checksums: Bool
  /// Every segment goes into one file, opened by the first job and closed at the end.
  private let singleFile: Bool
  /// Four jobs at most wait for the writer, besides the one being written:
  /// memory stays flat however long the input and however large its segments.
  private let queue = WorkQueue<Queued>(capacity: 4)
  /// Whether the sender encrypts the part at hand, given how many parts wait
  /// for the writer; asked as each encrypted segment begins and then for each
  /// of its parts until it says no.
  private let senderEncrypts: (_ waitingParts: Int) -> Bool

  /// The first failure, on either thread.
  private let failureLock = NSLock()
  private var failure: Error?
  /// Left when the thread ends; a group, not a semaphore, because it is
  /// waited for twice after a failure (by `send`, then by `finish`).
  private let running = DispatchGroup()

  // The sending (muxing) thread's own state.
  private let senderCipher: AES128CBC
  /// The run the sender is encrypting, if any.
  private var senderRun: SegmentCBCRun?
  private var sendingSegment = ""

  // The writing thread's own state.
  private let writerCipher: AES128CBC
  private var writerEncrypts = false
  private var writerCiphertext: [UInt8] = []
  private var file: FileWriter?
  private var digest: SHA256Stream?
  /// Bytes written to the open file, and where in it the current segment began.
  private var written = 0
  private var segmentStart = 0
  /// The open file's last 16 bytes (fewer at its start).
  private var lastBlock: [UInt8] = []
  /// With a single file, the IV the writer chose for the current segment.
  private var chainedIV: [UInt8]?
  /// Read only after `finish()`.
  private var records: [SegmentRecord] = []

  /// The packager's rule: two parts waiting mean the writer is behind.
  static let defaultSenderEncrypts: @Sendable (_ waitingParts: Int) -> Bool = { $0 >= 2 }

  init(
    rendition: String, checksums: Bool, singleFile: Bool = false,
    senderEncrypts: @escaping (_ waitingParts: Int) -> Bool = defaultSenderEncrypts
  ) throws {
    self.rendition = rendition
    self.checksums = checksums
    self.singleFile = singleFile
    // The IV of a segment of a single file is the ciphertext the writer wrote last.
    self.senderEncrypts = singleFile ? { _ in false } : senderEncrypts
    senderCipher = try AES128CBC()
    writerCipher = try AES128CBC()
    running.enter()
    Thread { [self] in
      while let job = queue.take() {
        do {
          // Handed over, not copied: a part's buffer must have one owner when it is recycled.
          try write(consume job)
        } catch {
          fail(error)
        }
      }
      // A single file stays open until every segment is in it.
      do { try file?.close() } catch { fail(error) }
      file = nil
      running.leave()
    }.start()
  }

  /// Queues a job; throws the first failure once there has been one, on
  /// either thread: a failure here stops the writer too, so that nothing
  /// after it is written (in particular no clear bytes of a segment whose
  /// encryption failed to start).
  func send(_ job: consuming Job) throws {
    do {
      try route(consume job)
    } catch {
      fail(error)
      // The writing thread stops before the failure is reported.
      running.wait()
      throw firstFailure ?? error
    }
  }

  private func route(_ job: consuming Job) throws {
    switch consume job {
    case .open(let url, let wholeSegment):
      sendingSegment = url.lastPathComponent
      try enqueue(.open(url))
      guard let wholeSegment else { return }
      let run = SegmentCBCRun(key: wholeSegment.key.content.bytes, iv: wholeSegment.iv)
      if senderShouldEncrypt {
        try crypto(sendingSegment) { try senderCipher.start(key: run.key, iv: run.iv) }
        senderRun = run
      } else {
        try enqueue(.encrypt(run))
      }
    case .bytes(var bytes):
      if let run = senderRun, !senderShouldEncrypt {
        senderRun = nil
        try enqueue(.encrypt(run))
      }
      guard senderRun != nil else { return try enqueue(.plaintext(bytes)) }
      var ciphertext = PartBufferPool.shared.takeFilled()
      let count = try crypto(sendingSegment) { try senderCipher.update(bytes, into: &ciphertext) }
      senderRun?.advance(over: bytes, ciphertext: ciphertext[..<count])
      PartBufferPool.shared.recycle(&bytes)
      try enqueue(.ciphertext(ciphertext, count: count))
    case .close(let record):
      let trailer = senderRun == nil ? [] : try crypto(sendingSegment) { try senderCipher.finish() }
      senderRun = nil
      try enqueue(.close(record, trailer: trailer))
    }
  }

  /// Waits until every queued segment is written; its records, or the first failure.
  func finish() throws -> [SegmentRecord] {
    queue.close()
    running.wait()
    if let failure = firstFailure { throw failure }
    return records
  }

  private var senderShouldEncrypt: Bool { senderEncrypts(queue.count(where: \.isPart)) }

  private func enqueue(_ job: consuming Queued) throws {
    guard queue.put(job) else {
      throw firstFailure ?? PackError.output(path: rendition, reason: "the segment writer stopped")
    }
  }

  private func write(_ job: consuming Queued) throws {
    switch consume job {
    case .open(let url):
      if !singleFile || file?.url != url {
        file = try FileWriter(creating: url)
        written = 0
        lastBlock = []
      }
      segmentStart = written
      chainedIV = nil
      digest = checksums ? try SHA256Stream() : nil
      writerEncrypts = false
    case .encrypt(let run):
      writerEncrypts = true
      // A range that follows whole blocks takes the last one as its IV: a
      // client widening an I-frame range by the block before it (RFC 8216bis
      // §6.3.6) then decrypts it too. The file's first range keeps its own.
      let iv = singleFile && lastBlock.count == AES128CBC.blockSize ? lastBlock : run.iv
      if singleFile { chainedIV = iv }
      try crypto(segmentName) {
        try writerCipher.start(key: run.key, iv: iv)
        // Less than a block: nothing comes out yet.
        _ = try writerCipher.update(run.pending, into: &writerCiphertext)
      }
    case .plaintext(var bytes):
      if writerEncrypts {
        let produced = try crypto(segmentName) { try writerCipher.update(bytes, into: &writerCiphertext) }
        try append(writerCiphertext[..<produced])
      } else {
        try append(bytes[...])
      }
      PartBufferPool.shared.recycle(&bytes)
    case .ciphertext(var bytes, let count):
      try append(bytes[..<count])
      PartBufferPool.shared.recycle(&bytes)
    case .close(var record, let trailer):
      try append(writerEncrypts ? try crypto(segmentName) { try writerCipher.finish() }[...] : trailer[...])
      if singleFile {
        record.byteOffset = segmentStart
        if let chainedIV {
          record.iv = chainedIV
          if record.key.iv != nil { record.key.iv = chainedIV }
        }
      } else {
        try file?.close()
        file = nil
      }
      record.byteCount = written - segmentStart
      record.sha256 = try digest.map { Hex.encode(try $0.finish()) }
      records.append(record)
    }
  }

  private var segmentName: String { file?.url.lastPathComponent ?? "" }

  private func append(_ bytes: ArraySlice<UInt8>) throws {
    guard let file else { throw PackError.output(path: rendition, reason: "segment bytes arrived outside a segment") }
    try bytes.withUnsafeBytes { raw in
      try file.write(raw)
      try digest?.update(raw)
    }
    written += bytes.count
    if singleFile {
      let block = AES128CBC.blockSize
      lastBlock = bytes.count >= block ? Array(bytes.suffix(block)) : Array((lastBlock + bytes).suffix(block))
    }
  }

  /// Records the first failure and drops the queued work: the writer stops,
  /// and the sender learns of it at its next job.
  private func fail(_ error: Error) {
    failureLock.withLock { if failure == nil { failure = error } }
    queue.abort()
  }

  private var firstFailure: Error? { failureLock.withLock { failure } }

  private func crypto<T>(_ segment: String, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch {
      throw PackError.crypto("\(rendition)/\(segment): \(error)")
    }
  }
}
