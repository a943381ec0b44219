import Foundation

/// The time as the file system holding `folder` stamps files: a run's start
/// compared with the change times of what others wrote there, on the same
/// clock even when the folder is on a server (NFS) whose clock differs from
/// this machine's.
public enum FileSystemClock {
  /// The change time of a file made and removed in `folder` now; nil if none can be made.
  public static func now(in folder: URL, registry: StagingRegistry = .shared) -> timespec? {
    let probe = folder.appendingPathComponent(".hlspack-clock-\(UUID().uuidString.prefix(8))")
    return try? registry.unlessInterrupted(at: probe.path) { () -> timespec? in
      let fd = open(probe.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
      guard fd >= 0 else { return nil }
      defer {
        close(fd)
        unlink(probe.path)
      }
      var info = stat()
      return fstat(fd, &info) == 0 ? info.st_ctim : nil
    }
  }

  /// When `path` (not followed if a link) last changed: its contents,
  /// mode or name (a rename, as publishing is), by the same clock.
  public static func changeTime(of path: String) -> timespec? {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_ctim : nil
  }

  public static func isAtOrAfter(_ a: timespec, _ b: timespec) -> Bool {
    a.tv_sec != b.tv_sec ? a.tv_sec > b.tv_sec : a.tv_nsec >= b.tv_nsec
  }
}
