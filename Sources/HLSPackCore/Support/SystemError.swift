import Glibc

/// A system call that failed, and the system's reason (errno). Every call site
/// that reports a failed call takes the reason from here, so messages quote it
/// the one way: "cannot read (No such file or directory)".
package struct SystemError: Error, Equatable, CustomStringConvertible {
  /// The errno value.
  package var code: Int32

  package init(code: Int32) { self.code = code }

  /// The error of the call that just failed: errno, read at once, before
  /// anything else can change it.
  package static var last: SystemError { SystemError(code: errno) }

  /// The system's words: "No such file or directory".
  package var reason: String { String(cString: strerror(code)) }
  /// As messages quote it after what failed: "(No such file or directory)".
  package var quoted: String { "(\(reason))" }
  package var description: String { reason }
}
