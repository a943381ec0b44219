import Foundation
import HLSPackCore

/// Writes bytes to a new file with plain POSIX writes: no atomic temporary
/// file and no fsync per file (FileManager.createFile does both), because the
/// whole asset is staged and published with one rename.
func writeFile(_ bytes: [UInt8], to url: URL, mode: mode_t = 0o644) throws {
  let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, mode)
  guard fd >= 0 else { throw PackError.output(path: url.path, reason: "cannot create the file (\(String(cString: strerror(errno))))") }
  defer { close(fd) }
  try bytes.withUnsafeBytes { raw in
    guard let base = raw.baseAddress else { return }
    var offset = 0
    while offset < raw.count {
      let n = write(fd, base + offset, raw.count - offset)
      if n < 0 {
        if errno == EINTR { continue }
        throw PackError.output(path: url.path, reason: "cannot write (\(String(cString: strerror(errno))))")
      }
      offset += n
    }
  }
}
