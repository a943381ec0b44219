import Foundation
import HLSPackCore
import HLSPackCrypto
import HLSPackMedia

/// A thread that writes segment files as their parts arrive: it creates the
/// file, writes the parts, hashes them when asked, then closes and records it,
/// while the muxing thread goes on with the next parts.
///
/// Whole-segment AES-128 (CBC carried from part to part, PKCS#7 at the end) is
/// a stage of its own, taken in job order by whichever thread is free: the
/// writer, or the muxing thread when the queue is full and it would otherwise
/// wait. Encrypting costs nearly as much CPU as muxing (bench/package, 10
/// minutes of 720p: muxing 0.33 s, CBC 0.28 s, writing 0.13 s), so a writer
/// that did all of it kept the muxer waiting 0.09-0.13 s; shared, the run
/// takes 0.41-0.43 s instead of 0.44-0.45 s. Measured with sharing and left
/// out: the writer taking the cipher before writing (the muxer waits again),
/// parts of 64-256 KiB and queues of 8-32 jobs (no faster).
///
/// Measured on two cores and left out: a second writer on alternate segments
/// (0.46 s, +6 MiB) and separate encrypting and writing threads (0.51-0.55 s,
/// +10 MiB), against 0.44 s for one writer that encrypted everything; letting
/// 2 to 6 MiB of segments wait and encrypting them side by side (one OpenSSL
/// ECB call per block of four chains: 2.4 GB/s against 1.2) was no faster and
/// cost 3 to 11 MiB, because the waiting parts leave the cache.
final class SegmentFileWriter: @unchecked Sendable {
  enum Job {
    /// A new segment file; with whole-segment AES-128, its key and IV.
    case open(URL, wholeSegment: SegmentKeying.Material?)
    case bytes([UInt8])
    /// The segment is complete: pad, close and record it.
    case close(SegmentRecord)
  }

  /// A job once through the cipher stage: what the writing thread does.
  private enum Output {
    case open(URL)
    /// The first `count` bytes of a muxer's part, or of a ciphertext buffer.
    case bytes([UInt8], count: Int, isCiphertext: Bool)
    /// `trailer`: the last block and its padding, when encrypting.
    case close(SegmentRecord, trailer: [UInt8])
  }

  private let rendition: String
  private let checksums: Bool
  /// Jobs waiting at most (for the cipher or for writing), besides the one
  /// in the cipher and the one being written: memory stays flat however
  /// long the input and however large its segments.
  private let capacity = 4

  // Shared between the threads, under `condition`.
  private let condition = NSCondition()
  /// Not yet through the cipher stage, in order.
  private var waiting: [Job] = []
  /// Through the cipher stage, in order, for the writing thread.
  private var ready: [Output] = []
  /// One thread at a time runs the cipher stage; jobs leave it in order.
  private var cipherInUse = false
  private var noMoreJobs = false
  private var failure: Error?
  /// Ciphertext buffers back from the writer, kept at full length.
  private var spareCiphertext: [[UInt8]] = []
  /// Left when the thread ends; a group, not a semaphore, because it is
  /// waited for twice after a failure (by `send`, then by `finish`).
  private let running = DispatchGroup()

  // The cipher stage's state, touched only while holding `cipherInUse`.
  private let cipher: AES128CBC
  private var encrypting = false
  private var segmentName = ""

  // The writing thread's own state.
  private var file: FileWriter?
  private var digest: SHA256Stream?
  private var written = 0
  /// Read only after `finish()`.
  private var records: [SegmentRecord] = []

  init(rendition: String, checksums: Bool) throws {
    self.rendition = rendition
    self.checksums = checksums
    cipher = try AES128CBC()
    running.enter()
    Thread { [self] in
      writeUntilDone()
      running.leave()
    }.start()
  }

  /// Queues a job; throws the first failure once there has been one.
  func send(_ job: consuming Job) throws {
    condition.lock()
    while failure == nil && waiting.count + ready.count >= capacity {
      // Rather than wait, the muxing thread takes its turn at the cipher.
      if !cipherInUse && !waiting.isEmpty { runCipherStage() } else { condition.wait() }
    }
    let failure = failure
    if failure == nil {
      waiting.append(consume job)
      condition.broadcast()
    }
    condition.unlock()
    if let failure {
      // The writing thread stops before the failure is reported.
      running.wait()
      throw failure
    }
  }

  /// Waits until every queued segment is written; its records, or the first failure.
  func finish() throws -> [SegmentRecord] {
    condition.lock()
    noMoreJobs = true
    condition.broadcast()
    condition.unlock()
    running.wait()
    if let failure = condition.withLock({ failure }) { throw failure }
    return records
  }

  private func writeUntilDone() {
    condition.lock()
    while failure == nil {
      if !ready.isEmpty {
        let output = ready.removeFirst()
        condition.broadcast()
        condition.unlock()
        var thrown: Error?
        do { try write(consume output) } catch { thrown = error }
        condition.lock()
        if let thrown { fail(thrown) }
      } else if !cipherInUse && !waiting.isEmpty {
        runCipherStage()
      } else if noMoreJobs && waiting.isEmpty && !cipherInUse {
        break
      } else {
        condition.wait()
      }
    }
    condition.unlock()
  }

  /// Takes the next waiting job through the cipher; called and returns with
  /// `condition` locked, and unlocks it for the work itself.
  private func runCipherStage() {
    let job = waiting.removeFirst()
    cipherInUse = true
    condition.unlock()
    var outputs: [Output] = []
    var thrown: Error?
    // Handed over, not copied: a part's buffer must have one owner when it is recycled.
    do { outputs = try encipher(consume job) } catch { thrown = error }
    condition.lock()
    cipherInUse = false
    if let thrown {
      fail(thrown)
    } else if failure == nil {
      // After a failure nothing more is written: the outputs are dropped with the queues.
      ready += outputs
    }
    condition.broadcast()
  }

  private func encipher(_ job: consuming Job) throws -> [Output] {
    switch consume job {
    case .open(let url, let wholeSegment):
      encrypting = wholeSegment != nil
      segmentName = url.lastPathComponent
      if let wholeSegment {
        try crypto { try cipher.start(key: wholeSegment.key.content.bytes, iv: wholeSegment.iv) }
      }
      return [.open(url)]
    case .bytes(var bytes):
      guard encrypting else { return [.bytes(bytes, count: bytes.count, isCiphertext: false)] }
      var ciphertext = condition.withLock { spareCiphertext.popLast() } ?? []
      let count = try crypto { try cipher.update(bytes, into: &ciphertext) }
      PartBufferPool.shared.recycle(&bytes)
      return [.bytes(ciphertext, count: count, isCiphertext: true)]
    case .close(let record):
      return [.close(record, trailer: encrypting ? try crypto { try cipher.finish() } : [])]
    }
  }

  private func write(_ output: consuming Output) throws {
    switch consume output {
    case .open(let url):
      file = try FileWriter(creating: url)
      written = 0
      digest = checksums ? try SHA256Stream() : nil
    case .bytes(var bytes, let count, let isCiphertext):
      try append(bytes[..<count])
      if isCiphertext { returnSpare(consume bytes) } else { PartBufferPool.shared.recycle(&bytes) }
    case .close(var record, let trailer):
      try append(trailer[...])
      try file?.close()
      file = nil
      record.byteCount = written
      record.sha256 = try digest.map { Hex.encode(try $0.finish()) }
      records.append(record)
    }
  }

  private func append(_ bytes: ArraySlice<UInt8>) throws {
    guard let file else { throw PackError.output(path: rendition, reason: "segment bytes arrived outside a segment") }
    try bytes.withUnsafeBytes { raw in
      try file.write(raw)
      try digest?.update(raw)
    }
    written += bytes.count
  }

  /// Keeps a ciphertext buffer for the next part; it keeps its length, so the
  /// cipher writes into it without clearing it first.
  private func returnSpare(_ buffer: consuming [UInt8]) {
    guard buffer.count > 0 else { return }
    condition.lock()
    spareCiphertext.append(buffer)
    condition.unlock()
  }

  /// Records the first failure and drops the queued work; `condition` is locked.
  private func fail(_ error: Error) {
    if failure == nil { failure = error }
    waiting.removeAll()
    ready.removeAll()
    condition.broadcast()
  }

  private func crypto<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch {
      throw PackError.crypto("\(rendition)/\(segmentName): \(error)")
    }
  }
}
