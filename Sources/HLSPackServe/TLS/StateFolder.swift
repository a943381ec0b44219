import Foundation
import Glibc

/// The folder `--tls auto` keeps its authority in. It holds a private key
/// that every client told to trust the authority will believe, so, like ssh
/// with `~/.ssh` (sshd_config's StrictModes), it is refused when another
/// user could have put files in it or could read the key: the folder must be
/// ours and writable by us only, the key readable by us only. A folder made
/// here is 0700, a key 0600.
enum StateFolder {
  /// Makes the folder (0700) or checks the one there.
  static func prepare(_ path: String) throws {
    var link = stat()
    if lstat(path, &link) != 0 {
      guard errno == ENOENT else { throw ServeError.stateFolder(path: path, reason: "cannot be read: \(Self.error())") }
      do {
        try FileManager.default.createDirectory(
          atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        throw ServeError.stateFolder(path: path, reason: "cannot be made: \(error.localizedDescription)")
      }
      guard chmod(path, 0o700) == 0 else { throw ServeError.stateFolder(path: path, reason: Self.error()) }
    }
    var info = stat()
    guard stat(path, &info) == 0 else {
      if link.st_mode & S_IFMT == S_IFLNK {
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
        throw ServeError.stateFolder(path: path, reason: "is a symbolic link to \(target), which does not exist")
      }
      throw ServeError.stateFolder(path: path, reason: "cannot be read: \(Self.error())")
    }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      throw ServeError.stateFolder(path: path, reason: "is a file, not a folder")
    }
    if let problem = ownerProblem(info) {
      throw ServeError.stateFolder(path: path, reason: problem + "; use a folder of your own")
    }
    guard info.st_mode & 0o022 == 0 else {
      throw ServeError.stateFolder(
        path: path, reason: "is writable by others (mode \(mode(info))); make it yours only: chmod 700 \(path)")
    }
  }

  /// Refuses a private key that is not a regular file of ours, readable and writable by us only.
  static func checkPrivateKey(_ path: String) throws {
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw ServeError.certificateUnreadable(path: path, reason: Self.error())
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw ServeError.certificateUnreadable(path: path, reason: "not a regular file")
    }
    if let problem = ownerProblem(info) { throw ServeError.certificateUnreadable(path: path, reason: problem) }
    guard info.st_mode & 0o077 == 0 else {
      throw ServeError.certificateUnreadable(
        path: path,
        reason: "a private key open to others (mode \(mode(info))); it must be its owner's only: chmod 600 \(path)")
    }
  }

  private static func ownerProblem(_ info: stat) -> String? {
    info.st_uid == geteuid() ? nil : "belongs to user \(info.st_uid), not to this one (\(geteuid()))"
  }

  private static func mode(_ info: stat) -> String { String(info.st_mode & 0o7777, radix: 8).leftPadded(to: 4) }
  private static func error() -> String { String(cString: strerror(errno)) }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
