import Foundation
import HLSPackCore

/// How many cores this process can keep busy at once: the online cores, or
/// fewer under an affinity mask (`taskset`, `docker run --cpuset-cpus`) or a
/// CPU quota (`docker run --cpus`: cgroup v2 `cpu.max`, v1
/// `cpu.cfs_quota_us`). Foundation's count sees only the online cores, and a
/// thread started for a core that is not there slows the others down.
public enum UsableCores {
  public static var count: Int {
    count(online: ProcessInfo.processInfo.activeProcessorCount) { path in
      (try? SmallFile.read(path, limit: 64 << 10)).map { String(decoding: $0, as: UTF8.self) }
    }
  }

  /// The same from `read`, which gives a file's text or nil.
  static func count(online: Int, read: (String) -> String?) -> Int {
    let groups = read("/proc/self/cgroup")
    // A quota binds the cgroups below it too, so every folder up to the root counts.
    let v2 = folders(under: "/sys/fs/cgroup", path: cgroupPath(groups, controller: "")).map {
      quota(cpuMax: read("\($0)/cpu.max"))
    }
    let v1 = folders(under: "/sys/fs/cgroup/cpu", path: cgroupPath(groups, controller: "cpu")).map {
      quota(microseconds: read("\($0)/cpu.cfs_quota_us"), period: read("\($0)/cpu.cfs_period_us"))
    }
    let limits = [affinity(status: read("/proc/self/status"))] + v2 + v1
    return max(1, limits.compactMap { $0 }.reduce(online, min))
  }

  /// The process's cgroup under a controller in /proc/self/cgroup
  /// ("1:cpu,cpuacct:/docker/abc"; cgroup v2 is "0::/path", the empty controller).
  static func cgroupPath(_ groups: String?, controller: String) -> String {
    for line in groups?.split(separator: "\n") ?? [] {
      let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count == 3 else { continue }
      let controllers = fields[1].split(separator: ",")
      if controller.isEmpty ? fields[1].isEmpty : controllers.contains(Substring(controller)) {
        return String(fields[2])
      }
    }
    return "/"
  }

  /// `root` + `path` and each folder above it up to `root`. In a container
  /// the process's own cgroup is usually the mount's root, and the path
  /// names a folder that is not there: reading it finds nothing.
  static func folders(under root: String, path: String) -> [String] {
    // A cgroup outside the process's namespace shows as "/../x": never above the mount.
    let parts = path.split(separator: "/").filter { $0 != ".." && $0 != "." }
    return (0...parts.count).reversed().map { depth in
      ([root] + parts.prefix(depth).map(String.init)).joined(separator: "/")
    }
  }

  /// The cores of `Cpus_allowed_list:` ("0-3,8") in /proc/self/status.
  static func affinity(status: String?) -> Int? {
    guard
      let line = status?.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }),
      let list = line.split(separator: ":", maxSplits: 1).last
    else { return nil }
    var count = 0
    for range in list.split(separator: ",") {
      let ends = range.split(separator: "-").map { Int($0.trimmingCharacters(in: .whitespaces)) }
      switch ends.count {
      case 1:
        guard ends[0] != nil else { return nil }
        count += 1
      case 2:
        guard let first = ends[0], let last = ends[1], last >= first else { return nil }
        count += last - first + 1
      default:
        return nil
      }
    }
    return count > 0 ? count : nil
  }

  /// cgroup v2 `cpu.max`: "<quota> <period>", or "max <period>" for none.
  static func quota(cpuMax: String?) -> Int? {
    guard let fields = cpuMax?.split(whereSeparator: \.isWhitespace), fields.count == 2 else { return nil }
    return quota(microseconds: String(fields[0]), period: String(fields[1]))
  }

  /// A quota of CPU time per period in whole cores, rounded down (2.5 CPUs
  /// cannot keep three threads busy), at least one; -1 or "max" for none.
  static func quota(microseconds: String?, period: String?) -> Int? {
    guard
      let quota = microseconds.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }),
      let period = period.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }),
      quota > 0, period > 0
    else { return nil }
    return max(1, quota / period)
  }
}
