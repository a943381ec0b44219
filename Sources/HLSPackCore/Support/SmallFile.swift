import Glibc

/// Reads a whole file that a profile names and that is small by nature (the
/// profile itself, a key-info file, a subtitle file) with an upper bound, so a
/// device named by mistake (`/dev/zero`) ends in an error instead of filling
/// memory. Pipes are read to their end, so `--profile <(make-profile)` works.
public enum SmallFile {
  public struct Failure: Error, Equatable, CustomStringConvertible {
    /// Why, in words that follow "cannot read <path>": "(No such file or directory)", …
    public var reason: String
    public var description: String { reason }
  }

  public static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
    // Opened non-blocking, so a named pipe without a writer cannot stall the
    // open; then blocking again, so a pipe's reads wait for its writer's data.
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { throw Failure(reason: SystemError.last.quoted) }
    defer { close(descriptor) }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    if (try? FileStatus(descriptor: descriptor))?.kind == .folder {
      throw Failure(reason: "(it is a folder)")
    }
    return try readToEnd(descriptor, limit: limit)
  }

  /// Reads a regular file whole and refuses anything else, for files of a
  /// package, which no one pipes in: a named pipe's reads wait for a writer,
  /// a device may never end, and opening either can block or act. The type
  /// and size are checked before the open and again on what was opened
  /// (non-blocking, never as a controlling terminal), so neither a swap in
  /// between nor a file growing past `limit` can slip through.
  /// `followingLinks: false` also refuses a symbolic link as the last part.
  public static func readRegular(_ path: String, limit: Int, followingLinks: Bool = true) throws(Failure) -> [UInt8] {
    let named = try status { () throws(SystemError) in try FileStatus(path: path, followingLinks: followingLinks) }
    try checkRegular(named, limit: limit)
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW))
    guard descriptor >= 0 else { throw Failure(reason: SystemError.last.quoted) }
    defer { close(descriptor) }
    try checkRegular(try status { () throws(SystemError) in try FileStatus(descriptor: descriptor) }, limit: limit)
    return try readToEnd(descriptor, limit: limit)
  }

  private static func status(_ read: () throws(SystemError) -> FileStatus) throws(Failure) -> FileStatus {
    do { return try read() } catch { throw Failure(reason: error.quoted) }
  }

  private static func checkRegular(_ status: FileStatus, limit: Int) throws(Failure) {
    guard status.kind == .regular else { throw Failure(reason: "(not a regular file: \(status.kind))") }
    guard status.size <= limit else {
      throw Failure(reason: "(\(status.size) bytes, larger than \(sizeText(limit)))")
    }
  }

  private static func readToEnd(_ descriptor: Int32, limit: Int) throws(Failure) -> [UInt8] {
    var bytes: [UInt8] = []
    var piece = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let n = piece.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw Failure(reason: SystemError.last.quoted)
      }
      if n == 0 { return bytes }
      guard bytes.count + n <= limit else { throw Failure(reason: "(larger than \(sizeText(limit)))") }
      bytes += piece[..<n]
    }
  }

  private static func sizeText(_ bytes: Int) -> String {
    if bytes < 1 << 10 { return "\(bytes) bytes" }
    return bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
  }
}
