import Foundation
import HLSPackCore
import HLSPackCrypto

/// What a file was when an asset was made of it: its `FileIdentity` (path,
/// size, modification time) and a digest of samples of its content. The samples keep the digest
/// cheap for 50 GB mezzanines: files up to 6 MiB are read whole; larger ones
/// give their first and last MiB and 64 KiB at each of 62 evenly spaced
/// offsets between (6 MiB whatever the size). See docs/batch.md.
public struct FileFingerprint: Sendable, Codable, Equatable {
  public var path: String
  public var size: Int64
  /// Nanoseconds since 1970 (`st_mtim`); nil in a reproducible (seeded) run,
  /// whose files must not depend on when a copy of the input was made.
  public var modified: Int64?
  public var sampledSHA256: String

  enum CodingKeys: String, CodingKey {
    case path, size, modified
    case sampledSHA256 = "sampled_sha256"
  }

  static let wholeFileLimit: Int64 = 6 << 20
  static let edge = 1 << 20
  static let sample = 64 << 10
  static let samplesBetween = 62

  /// Reads the samples of the regular file at `url` (never a pipe or a device,
  /// whose reads could block or never end).
  public static func of(_ url: URL, withModificationTime: Bool = true) throws -> FileFingerprint {
    let path = url.path
    func failure(_ reason: String) -> PackError { .input(path: path, reason: reason) }
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { throw failure("cannot open \(SystemError.last.quoted)") }
    defer { close(descriptor) }
    let identity: FileIdentity
    do {
      identity = try FileIdentity(descriptor: descriptor, path: path)
    } catch {
      throw failure("cannot read its status \(error.quoted)")
    }
    guard identity.status.kind == .regular else { throw failure("is not a regular file") }
    let size = identity.size
    let digest = try SHA256Stream()
    try digest.update(Array("hlspack/sampled-sha256/v1".utf8) + withUnsafeBytes(of: size.bigEndian, Array.init))
    for (offset, length) in ranges(size: size) {
      var bytes = [UInt8](repeating: 0, count: length)
      var done = 0
      while done < length {
        let n = bytes.withUnsafeMutableBytes {
          pread(descriptor, $0.baseAddress.map { $0 + done }, length - done, off_t(offset) + off_t(done))
        }
        if n < 0, errno == EINTR { continue }
        guard n > 0 else {
          throw failure(
            n == 0
              ? "ended early while it was read (is it being written?)"
              : "cannot read \(SystemError.last.quoted)")
        }
        done += n
      }
      try digest.update(bytes)
    }
    return FileFingerprint(
      path: path, size: size, modified: withModificationTime ? identity.modified : nil,
      sampledSHA256: Hex.encode(try digest.finish()))
  }

  /// The (offset, length) pieces that the digest covers, in file order.
  static func ranges(size: Int64) -> [(Int64, Int)] {
    guard size > wholeFileLimit else {
      return stride(from: Int64(0), to: size, by: edge).map { ($0, Int(min(Int64(edge), size - $0))) }
    }
    let between = (1...samplesBetween).map { i -> (Int64, Int) in
      let offset = Int64(edge) + (size - 2 * Int64(edge) - Int64(sample)) * Int64(i) / Int64(samplesBetween + 1)
      return (offset, sample)
    }
    return [(0, edge)] + between + [(size - Int64(edge), edge)]
  }
}
