import Foundation
import HLSPackCore

/// A new file written with plain POSIX writes, piece by piece: no atomic
/// temporary file and no fsync per file (FileManager.createFile does both),
/// because a whole asset is staged and published with one rename. Every file
/// hlspack writes goes through here.
final class FileWriter {
  let url: URL
  private var descriptor: Int32

  /// `mode` applies from creation on (0600 key files are never readable by
  /// others, even briefly), less the umask. `exclusive` refuses an existing
  /// file, or a symbolic link someone left at that path.
  init(creating url: URL, mode: mode_t = 0o644, exclusive: Bool = false) throws {
    self.url = url
    // Through the registry: once an interrupt has begun removing unfinished
    // work, no new file may appear in it. errno is read before the unlock.
    let (opened, failure) = try StagingRegistry.shared.unlessInterrupted(at: url.path) {
      (open(url.path, O_WRONLY | O_CREAT | (exclusive ? O_EXCL : O_TRUNC), mode), errno)
    }
    descriptor = opened
    guard descriptor >= 0 else {
      throw PackError.output(path: url.path, reason: "cannot create the file \(SystemError(code: failure).quoted)")
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
        throw PackError.output(path: url.path, reason: "cannot write \(SystemError.last.quoted)")
      }
      offset += n
    }
  }

  /// Closes the file; a failed close can mean lost data (NFS, quotas), so it is reported.
  func close() throws {
    let result = Glibc.close(descriptor)
    descriptor = -1
    if result != 0 {
      throw PackError.output(path: url.path, reason: "cannot close \(SystemError.last.quoted)")
    }
  }
}

/// Writes a whole file at once; on failure, removes what was written, so a
/// file is either complete or absent.
func writeFile(_ bytes: some ContiguousBytes, to url: URL, mode: mode_t = 0o644, exclusive: Bool = false) throws {
  let file = try FileWriter(creating: url, mode: mode, exclusive: exclusive)
  do {
    try bytes.withUnsafeBytes { try file.write($0) }
    try file.close()
  } catch {
    unlink(url.path)
    throw error
  }
}

/// Creates `folder` and any missing parents, refused once an interrupt has
/// begun removing unfinished work (see `StagingRegistry`).
func createFolder(_ folder: URL) throws {
  try StagingRegistry.shared.unlessInterrupted(at: folder.path) {
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw PackError.output(path: folder.path, reason: "cannot create the folder (\(error.localizedDescription))")
    }
  }
}
