import Foundation
import HLSPackCore
import HLSPackCrypto
import HLSPackMedia

/// A thread that writes segment files as their parts arrive: it creates the
/// file, encrypts whole-segment AES-128 on the way (CBC carries on from part
/// to part, PKCS#7 at the end), hashes when asked, then closes and records it,
/// while the muxing thread goes on with the next parts.
///
/// Measured on two cores (bench/package, AES-128, 10 minutes of 720p) and left
/// out: a second writer on alternate segments (0.46 s, +6 MiB) and separate
/// encrypting and writing threads (0.51-0.55 s, +10 MiB), against 0.44 s here.
/// Also left out: letting 2 to 6 MiB of segments wait and encrypting them
/// side by side (the next block of each through one OpenSSL ECB call, the CBC
/// XOR done by hand; 2.4 GB/s for four chains against 1.2 for one). Over 15
/// alternating runs its median was 0.52-0.56 s against 0.53 s here, with 3 to
/// 11 MiB more memory: the waiting parts leave the cache, and muxing into
/// parts encrypted in place slowed the muxing thread.
final class SegmentFileWriter: @unchecked Sendable {
  enum Job {
    /// A new segment file; with whole-segment AES-128, its key and IV.
    case open(URL, wholeSegment: SegmentKeying.Material?)
    case bytes([UInt8])
    /// The segment is complete: pad, close and record it.
    case close(SegmentRecord)
  }

  private let rendition: String
  private let checksums: Bool
  /// Two parts at most wait for the thread: memory stays flat however long
  /// the input and however large its segments.
  private let queue = WorkQueue<Job>(capacity: 2)
  /// Left when the thread ends; a group, not a semaphore, because it is
  /// waited for twice after a failure (by `send`, then by `finish`).
  private let running = DispatchGroup()
  private var failure: Error?
  /// Read only after `finish()`.
  private var records: [SegmentRecord] = []

  // The thread's own state.
  private var file: FileWriter?
  private let cipher: AES128CBC
  private var encrypting = false
  private var ciphertext: [UInt8] = []
  private var digest: SHA256Stream?
  private var written = 0

  init(rendition: String, checksums: Bool) throws {
    self.rendition = rendition
    self.checksums = checksums
    cipher = try AES128CBC()
    running.enter()
    Thread { [self] in
      while true {
        guard let job = queue.take() else { break }
        do {
          // Handed over, not copied: a part's buffer must have one owner when it is recycled.
          try perform(consume job)
        } catch {
          failure = error
          queue.abort()
        }
      }
      running.leave()
    }.start()
  }

  /// Queues a job; throws the thread's failure once it has stopped on one.
  func send(_ job: Job) throws {
    guard queue.put(job) else {
      running.wait()
      throw failure ?? PackError.output(path: rendition, reason: "the segment writer stopped")
    }
  }

  /// Waits until every queued segment is written; its records, or the first failure.
  func finish() throws -> [SegmentRecord] {
    queue.close()
    running.wait()
    if let failure { throw failure }
    return records
  }

  private func perform(_ job: consuming Job) throws {
    switch consume job {
    case .open(let url, let wholeSegment):
      file = try FileWriter(creating: url)
      written = 0
      digest = checksums ? try SHA256Stream() : nil
      encrypting = wholeSegment != nil
      if let wholeSegment {
        try crypto { try cipher.start(key: wholeSegment.key.content.bytes, iv: wholeSegment.iv) }
      }
    case .bytes(var bytes):
      if encrypting {
        let count = try crypto { try cipher.update(bytes, into: &ciphertext) }
        try output(ciphertext[..<count])
      } else {
        try output(bytes[...])
      }
      PartBufferPool.shared.recycle(&bytes)
    case .close(var record):
      if encrypting { try output(try crypto { try cipher.finish() }[...]) }
      try file?.close()
      file = nil
      record.byteCount = written
      record.sha256 = try digest.map { Hex.encode(try $0.finish()) }
      records.append(record)
    }
  }

  private func output(_ bytes: ArraySlice<UInt8>) throws {
    guard let file else { throw PackError.output(path: rendition, reason: "segment bytes arrived outside a segment") }
    try bytes.withUnsafeBytes { raw in
      try file.write(raw)
      try digest?.update(raw)
    }
    written += bytes.count
  }

  private func crypto<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch {
      throw PackError.crypto("\(rendition)/\(file?.url.lastPathComponent ?? "?"): \(error)")
    }
  }
}
