import Foundation

/// A media source as a run found it before reading it. Only regular files
/// are read: a named pipe without a writer would block the run (and every
/// input after it) forever, and a device or a pipe may never end. A file
/// that changes before its asset is published (a recording or a copy still
/// being written) would be published as a complete, shorter asset.
public struct SourceSnapshot: Sendable {
  public let path: String
  private let device: UInt64
  private let inode: UInt64
  private let size: Int64
  private let modified: (seconds: Int, nanoseconds: Int)

  /// Fails, naming the file, when it is missing or not a regular file.
  public init(path: String) throws {
    var info = stat()
    guard stat(path, &info) == 0 else {
      let reason = errno == ENOENT ? "no such file" : "cannot be read (\(String(cString: strerror(errno))))"
      throw PackError.input(path: path, reason: reason)
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw PackError.input(
        path: path,
        reason:
          "is \(Self.kind(info.st_mode)), not a regular file; hlspack reads its inputs from files (save a stream to a file first)"
      )
    }
    self.path = path
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    modified = (info.st_mtim.tv_sec, info.st_mtim.tv_nsec)
  }

  /// Fails, naming the file, when it is no longer the file it was: another
  /// size, modification time, or file at its path.
  public func checkUnchanged() throws {
    var info = stat()
    let change: String?
    if stat(path, &info) != 0 {
      change = "it is gone (\(String(cString: strerror(errno))))"
    } else if UInt64(info.st_dev) != device || UInt64(info.st_ino) != inode {
      change = "another file took its place"
    } else if Int64(info.st_size) != size {
      change = "its size went from \(size) to \(info.st_size) bytes"
    } else if info.st_mtim.tv_sec != modified.seconds || info.st_mtim.tv_nsec != modified.nanoseconds {
      change = "it was modified"
    } else {
      change = nil
    }
    guard let change else { return }
    throw PackError.input(
      path: path,
      reason:
        "changed while it was being encoded (\(change)): is it still being written? Nothing was published; encode it once it is complete"
    )
  }

  private static func kind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFIFO: "a named pipe (FIFO)"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    case S_IFDIR: "a folder"
    default: "a special file"
    }
  }
}
