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
    guard descriptor >= 0 else { throw Failure(reason: "(\(String(cString: strerror(errno))))") }
    defer { close(descriptor) }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    var info = stat()
    if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
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
    var info = stat()
    guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else {
      throw Failure(reason: "(\(errorText(errno)))")
    }
    try checkRegular(info, limit: limit)
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW))
    guard descriptor >= 0 else { throw Failure(reason: "(\(errorText(errno)))") }
    defer { close(descriptor) }
    guard fstat(descriptor, &info) == 0 else { throw Failure(reason: "(\(errorText(errno)))") }
    try checkRegular(info, limit: limit)
    return try readToEnd(descriptor, limit: limit)
  }

  /// What a file of `mode` is, for messages: "a named pipe", "a folder", …
  public static func kind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFREG: "a regular file"
    case S_IFDIR: "a folder"
    case S_IFLNK: "a symbolic link"
    case S_IFIFO: "a named pipe"
    case S_IFSOCK: "a socket"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    default: "of an unknown type"
    }
  }

  private static func checkRegular(_ info: stat, limit: Int) throws(Failure) {
    guard info.st_mode & S_IFMT == S_IFREG else { throw Failure(reason: "(not a regular file: \(kind(info.st_mode)))") }
    guard info.st_size <= limit else {
      throw Failure(reason: "(\(info.st_size) bytes, larger than \(sizeText(limit)))")
    }
  }

  private static func readToEnd(_ descriptor: Int32, limit: Int) throws(Failure) -> [UInt8] {
    var bytes: [UInt8] = []
    var piece = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let n = piece.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw Failure(reason: "(\(errorText(errno)))")
      }
      if n == 0 { return bytes }
      guard bytes.count + n <= limit else { throw Failure(reason: "(larger than \(sizeText(limit)))") }
      bytes += piece[..<n]
    }
  }

  private static func errorText(_ code: Int32) -> String {
    String(cString: strerror(code))
  }

  private static func sizeText(_ bytes: Int) -> String {
    if bytes < 1 << 10 { return "\(bytes) bytes" }
    return bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
  }
}
