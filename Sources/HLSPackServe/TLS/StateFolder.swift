import Foundation
import Glibc
import HLSPackCore

/// The folder `--tls auto` keeps its authority in. It holds a private key
/// that every client told to trust the authority will believe, so, like ssh
/// with `~/.ssh` (sshd_config's StrictModes), it is refused when another
/// user could have put files in it or could read the key: the folder must be
/// ours and writable by us only, the key readable by us only. A folder made
/// here is 0700, a key 0600.
enum StateFolder {
  /// Makes the folder (0700) or checks the one there.
  static func prepare(_ path: String) throws {
    var link: FileStatus?
    do throws(SystemError) {
      link = try FileStatus(path: path, followingLinks: false)
    } catch {
      guard error.code == ENOENT else { throw ServeError.stateFolder(path: path, reason: "cannot be read: \(error)") }
      do {
        try FileManager.default.createDirectory(
          atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        throw ServeError.stateFolder(path: path, reason: "cannot be made: \(error.localizedDescription)")
      }
      guard chmod(path, 0o700) == 0 else { throw ServeError.stateFolder(path: path, reason: SystemError.last.reason) }
    }
    let info: FileStatus
    do throws(SystemError) {
      info = try FileStatus(path: path)
    } catch {
      if link?.kind == .symbolicLink {
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
        throw ServeError.stateFolder(path: path, reason: "is a symbolic link to \(target), which does not exist")
      }
      throw ServeError.stateFolder(path: path, reason: "cannot be read: \(error)")
    }
    guard info.kind == .folder else {
      throw ServeError.stateFolder(path: path, reason: "is a file, not a folder")
    }
    if let problem = ownerProblem(info) {
      throw ServeError.stateFolder(path: path, reason: problem + "; use a folder of your own")
    }
    guard info.permissions & 0o022 == 0 else {
      throw ServeError.stateFolder(
        path: path, reason: "is writable by others (mode \(mode(info))); make it yours only: chmod 700 \(path)")
    }
  }

  /// Refuses a private key that is not a regular file of ours, readable and writable by us only.
  static func checkPrivateKey(_ path: String) throws {
    let info: FileStatus
    do throws(SystemError) {
      info = try FileStatus(path: path)
    } catch {
      throw ServeError.certificateUnreadable(path: path, reason: error.reason)
    }
    guard info.kind == .regular else {
      throw ServeError.certificateUnreadable(path: path, reason: "not a regular file")
    }
    if let problem = ownerProblem(info) { throw ServeError.certificateUnreadable(path: path, reason: problem) }
    guard info.permissions & 0o077 == 0 else {
      throw ServeError.certificateUnreadable(
        path: path,
        reason: "a private key open to others (mode \(mode(info))); it must be its owner's only: chmod 600 \(path)")
    }
  }

  private static func ownerProblem(_ info: FileStatus) -> String? {
    info.owner == geteuid() ? nil : "belongs to user \(info.owner), not to this one (\(geteuid()))"
  }

  private static func mode(_ info: FileStatus) -> String { String(info.permissions, radix: 8).leftPadded(to: 4) }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
