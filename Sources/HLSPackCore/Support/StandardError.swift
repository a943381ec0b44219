import Glibc

/// The process's standard error, written with write(2). A message that cannot
/// be written (standard error closed, a full disk) is dropped: the exit status
/// still tells the caller what happened. Foundation's `FileHandle.write(_:)`
/// traps on any such error instead, so a command started with `2>&-` died.
package enum StandardError {
  package static func write(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return }
      bytes = bytes.dropFirst(written)
    }
  }
}
