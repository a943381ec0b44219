import Foundation

/// Names the run that owns a hidden folder beside an asset (its staging
/// folder, or the replaced asset's hidden copy), so that a later run can tell
/// one left by a killed run (SIGKILL, a power cut: no cleanup ran) from one a
/// live run is writing, and remove only the first kind. The marker is a small
/// file inside the folder, taken out just before the folder is published.
///
/// A folder counts as abandoned only when its marker names hlspack, this
/// machine and a process that no longer exists, and the folder belongs to
/// this user. A reused process id, another machine sharing the folder (NFS)
/// or an unreadable marker keeps it: the run then only names it.
public enum StagingMarker {
  public static let fileName = ".hlspack-staging"

  struct Owner: Codable, Equatable {
    var tool: String
    /// The subcommand (encode, batch, rewrite-keys), for the person reading it.
    var command: String
    var pid: Int32
    var host: String
  }

  static let current = Owner(
    tool: AssetReport.Tool.hlspack, command: CommandLine.arguments.dropFirst().first ?? "hlspack", pid: getpid(),
    host: hostName())

  private static func hostName() -> String {
    var name = [CChar](repeating: 0, count: 256)
    guard gethostname(&name, name.count - 1) == 0 else { return "" }
    return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Writes this run's marker into `folder` (owner-only, never through a link).
  static func write(into folder: URL) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let bytes = Array(try encoder.encode(current)) + Array("\n".utf8)
    let path = folder.appendingPathComponent(fileName).path
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard fd >= 0 else {
      throw PackError.output(path: path, reason: "cannot create \(SystemError.last.quoted)")
    }
    defer { close(fd) }
    guard Glibc.write(fd, bytes, bytes.count) == bytes.count else {
      let reason = SystemError.last.reason
      unlink(path)
      throw PackError.output(path: path, reason: "cannot write (\(reason))")
    }
  }

  static func remove(from folder: URL) {
    unlink(folder.appendingPathComponent(fileName).path)
  }

  /// Whether `folder` is one a killed hlspack run on this machine left (see the type).
  static func isAbandoned(_ folder: URL) -> Bool {
    guard let status = try? FileStatus(path: folder.path, followingLinks: false), status.kind == .folder,
      status.owner == geteuid(),
      let bytes = try? SmallFile.readRegular(
        folder.appendingPathComponent(fileName).path, limit: 4096, followingLinks: false),
      let owner = try? JSONDecoder().decode(Owner.self, from: Data(bytes)),
      owner.tool == current.tool, owner.host == current.host, owner.pid > 0, owner.pid != current.pid
    else { return false }
    return kill(owner.pid, 0) != 0 && errno == ESRCH
  }
}
