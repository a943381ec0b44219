import Foundation
import Glibc

/// The process's standard error, written with write(2). A message that cannot
/// be written (standard error closed, a full disk) is dropped: the exit status
/// still tells the caller what happened. Foundation's `FileHandle.write(_:)`
/// traps on any such error instead, so a command started with `2>&-` died.
package enum StandardError {
  package static func write(_ text: String) {
    _ = FileDescriptor.writeAll(Data(text.utf8), to: 2)
  }
}

package enum FileDescriptor {
  /// Writes every byte of `data` to `descriptor`, again after EINTR; the
  /// error of the call that failed, or nil. A write that makes no progress
  /// counts as an I/O error rather than being retried for ever.
  package static func writeAll(_ data: Data, to descriptor: Int32) -> SystemError? {
    data.withUnsafeBytes { bytes in
      guard let base = bytes.baseAddress else { return nil }
      var offset = 0
      while offset < bytes.count {
        let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
        if written < 0 {
          let error = SystemError.last
          if error.code == EINTR { continue }
          return error
        }
        if written == 0 { return SystemError(code: EIO) }
        offset += written
      }
      return nil
    }
  }
}
