import Glibc

/// A regular file as a run found it before reading it: its path, and the
/// device, inode, size and modification time that tell whether the file at
/// that path is still the same file in the same state. Only regular files
/// are read: a named pipe without a writer would block the run (and every
/// input after it) forever, and a device or a pipe may never end. A media
/// source that changes before its asset is published (a recording or a copy
/// still being written) would be published as a complete, shorter asset;
/// provenance.json records the size and time of each source from here.
public struct FileIdentity: Sendable, Equatable {
  public let path: String
  package let status: FileStatus

  /// Size in bytes.
  public var size: Int64 { status.size }
  /// Modification time (`st_mtim`) in nanoseconds since 1970.
  public var modified: Int64 { status.modified }

  /// The file at `path`; fails, naming the file, when it is missing or not a regular file.
  public init(path: String) throws {
    let status: FileStatus
    do {
      status = try FileStatus(path: path)
    } catch {
      let reason = error.code == ENOENT ? "no such file" : "cannot be read \(error.quoted)"
      throw PackError.input(path: path, reason: reason)
    }
    guard status.kind == .regular else {
      throw PackError.input(
        path: path,
        reason:
          "is \(Self.named(status.kind)), not a regular file; hlspack reads its inputs from files (save a stream to a file first)"
      )
    }
    self.init(path: path, status: status)
  }

  /// The file open as `descriptor`, named `path`: what was opened, whatever the path names now.
  package init(descriptor: Int32, path: String) throws(SystemError) {
    self.init(path: path, status: try FileStatus(descriptor: descriptor))
  }

  private init(path: String, status: FileStatus) {
    self.path = path
    self.status = status
  }

  /// How an input that is no file is named: a pipe by its common name too, as
  /// `mkfifo` and shells' process substitution make them.
  private static func named(_ kind: FileKind) -> String {
    switch kind {
    case .namedPipe: "a named pipe (FIFO)"
    case .unknown: "a special file"
    default: kind.description
    }
  }

  /// Fails, naming the file, when it is no longer the file it was: another
  /// size, modification time, or file at its path.
  public func checkUnchanged() throws {
    let change: String?
    do {
      let now = try FileStatus(path: path)
      if !now.isSameFile(as: status) {
        change = "another file took its place"
      } else if now.size != status.size {
        change = "its size went from \(status.size) to \(now.size) bytes"
      } else if now.modified != status.modified {
        change = "it was modified"
      } else {
        change = nil
      }
    } catch {
      change = "it is gone \(error.quoted)"
    }
    guard let change else { return }
    throw PackError.input(
      path: path,
      reason:
        "changed while it was being encoded (\(change)): is it still being written? Nothing was published; encode it once it is complete"
    )
  }
}
