import Foundation
import HLSPackCore

/// A new file written with plain POSIX writes, piece by piece: no atomic
/// temporary file and no fsync per file (FileManager.createFile does both),
/// because the whole asset is staged and published with one rename.
final class FileWriter {
  let url: URL
  private var descriptor: Int32

  init(creating url: URL, mode: mode_t = 0o644) throws {
    self.url = url
    descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, mode)
    guard descriptor >= 0 else {
      throw PackError.output(path: url.path, reason: "cannot create the file (\(String(cString: strerror(errno))))")
    }
  }

  deinit {
    if descriptor >= 0 { Glibc.close(descriptor) }
  }

  func write(_ bytes: UnsafeRawBufferPointer) throws {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      let n = Glibc.write(descriptor, base + offset, bytes.count - offset)
      if n < 0 {
        if errno == EINTR { continue }
        throw PackError.output(path: url.path, reason: "cannot write (\(String(cString: strerror(errno))))")
      }
      offset += n
    }
  }

  /// Closes the file; a failed close can mean lost data (NFS, quotas), so it is reported.
  func close() throws {
    let result = Glibc.close(descriptor)
    descriptor = -1
    if result != 0 {
      throw PackError.output(path: url.path, reason: "cannot close (\(String(cString: strerror(errno))))")
    }
  }
}

/// Writes a whole file at once.
func writeFile(_ bytes: [UInt8], to url: URL, mode: mode_t = 0o644) throws {
  let file = try FileWriter(creating: url, mode: mode)
  try bytes.withUnsafeBytes { try file.write($0) }
  try file.close()
}
