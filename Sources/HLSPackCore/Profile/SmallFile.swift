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
    var bytes: [UInt8] = []
    var piece = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let n = piece.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw Failure(reason: "(\(String(cString: strerror(errno))))")
      }
      if n == 0 { return bytes }
      guard bytes.count + n <= limit else { throw Failure(reason: "(larger than \(sizeText(limit)))") }
      bytes += piece[..<n]
    }
  }

  private static func sizeText(_ bytes: Int) -> String {
    bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
  }
}
