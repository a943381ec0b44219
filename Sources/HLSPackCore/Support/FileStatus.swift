import Glibc

/// What stat(2) says about a file: its type, and the device, inode, size and
/// modification time that tell one file, and one state of it, from another.
package struct FileStatus: Sendable, Equatable {
  package var kind: FileKind
  /// The permission bits (`st_mode & 0o7777`).
  package var permissions: mode_t
  /// The owner's user id.
  package var owner: uid_t
  package var device: UInt64
  package var inode: UInt64
  package var size: Int64
  /// Modification time (`st_mtim`) in nanoseconds since 1970.
  package var modified: Int64

  package init(_ info: stat) {
    kind = FileKind(mode: info.st_mode)
    permissions = info.st_mode & 0o7777
    owner = info.st_uid
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
  }

  /// The file at `path`; `followingLinks: false` describes a symbolic link itself (lstat).
  package init(path: String, followingLinks: Bool = true) throws(SystemError) {
    var info = stat()
    guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { throw .last }
    self.init(info)
  }

  /// The file open as `descriptor`: the one that was opened, whatever its path names now.
  package init(descriptor: Int32) throws(SystemError) {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw .last }
    self.init(info)
  }

  /// The same file (device and inode), whatever its state now.
  package func isSameFile(as other: FileStatus) -> Bool { device == other.device && inode == other.inode }
}

/// A file's type (`st_mode & S_IFMT`), named for messages.
package enum FileKind: Sendable, Equatable, CustomStringConvertible {
  case regular, folder, symbolicLink, namedPipe, socket, characterDevice, blockDevice, unknown

  package init(mode: mode_t) {
    switch mode & S_IFMT {
    case S_IFREG: self = .regular
    case S_IFDIR: self = .folder
    case S_IFLNK: self = .symbolicLink
    case S_IFIFO: self = .namedPipe
    case S_IFSOCK: self = .socket
    case S_IFCHR: self = .characterDevice
    case S_IFBLK: self = .blockDevice
    default: self = .unknown
    }
  }

  /// "a regular file", "a named pipe", …, as messages say what a path is.
  package var description: String {
    switch self {
    case .regular: "a regular file"
    case .folder: "a folder"
    case .symbolicLink: "a symbolic link"
    case .namedPipe: "a named pipe"
    case .socket: "a socket"
    case .characterDevice: "a character device"
    case .blockDevice: "a block device"
    case .unknown: "of an unknown type"
    }
  }
}
