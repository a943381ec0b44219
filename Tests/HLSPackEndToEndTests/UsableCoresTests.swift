import Foundation
import Testing

@testable import HLSPack

/// The cores a run may use: affinity masks and CPU quotas as Linux and
/// Docker write them.
@Suite struct UsableCoresTests {
  @Test func affinityListsCountEveryCore() {
    #expect(UsableCores.affinity(status: "Name:\thlspack\nCpus_allowed:\tff\nCpus_allowed_list:\t0-3,8,10-11\n") == 7)
    #expect(UsableCores.affinity(status: "Cpus_allowed_list:\t0\n") == 1)
    // Missing or unreadable: no limit from here.
    #expect(UsableCores.affinity(status: "Name:\thlspack\n") == nil)
    #expect(UsableCores.affinity(status: "Cpus_allowed_list:\t3-1\n") == nil)
    #expect(UsableCores.affinity(status: nil) == nil)
  }

  @Test func quotasCountWholeCores() {
    #expect(UsableCores.quota(cpuMax: "200000 100000\n") == 2)
    #expect(UsableCores.quota(cpuMax: "250000 100000\n") == 2)
    #expect(UsableCores.quota(cpuMax: "50000 100000\n") == 1)
    #expect(UsableCores.quota(cpuMax: "max 100000\n") == nil)
    #expect(UsableCores.quota(microseconds: "-1\n", period: "100000\n") == nil)
    #expect(UsableCores.quota(microseconds: "300000\n", period: "100000\n") == 3)
  }

  @Test func quotasAreLookedUpInTheProcesssCgroupAndAboveIt() {
    let v1 = "4:memory:/x\n2:cpuacct:/\n1:cpu,cpuacct:/docker/abc\n0::/system.slice/job.service\n"
    #expect(UsableCores.cgroupPath(v1, controller: "cpu") == "/docker/abc")
    #expect(UsableCores.cgroupPath(v1, controller: "") == "/system.slice/job.service")
    #expect(UsableCores.cgroupPath("0::/\n", controller: "cpu") == "/")
    #expect(UsableCores.cgroupPath(nil, controller: "") == "/")
    #expect(
      UsableCores.folders(under: "/sys/fs/cgroup", path: "/a/b")
        == ["/sys/fs/cgroup/a/b", "/sys/fs/cgroup/a", "/sys/fs/cgroup"])
    #expect(UsableCores.folders(under: "/sys/fs/cgroup", path: "/") == ["/sys/fs/cgroup"])
    #expect(UsableCores.folders(under: "/sys/fs/cgroup", path: "/../x") == ["/sys/fs/cgroup/x", "/sys/fs/cgroup"])
  }

  /// Whole machines and containers as their files describe them: the
  /// smallest of the online cores, the affinity and every quota applies.
  @Test(arguments: [
    // A host, no limits: the online cores.
    Machine(
      files: ["/proc/self/cgroup": "0::/user.slice\n", "/proc/self/status": "Cpus_allowed_list:\t0-15\n"], cores: 16),
    // docker run --cpus=2.5 on cgroup v2 (private namespace: the container is the root).
    Machine(files: ["/proc/self/cgroup": "0::/\n", "/sys/fs/cgroup/cpu.max": "250000 100000\n"], cores: 2),
    // docker run --cpuset-cpus=0-2.
    Machine(files: ["/proc/self/cgroup": "0::/\n", "/proc/self/status": "Cpus_allowed_list:\t0-2\n"], cores: 3),
    // A systemd service with CPUQuota=400% under a slice capped at 300%.
    Machine(
      files: [
        "/proc/self/cgroup": "0::/jobs.slice/pack.service\n",
        "/sys/fs/cgroup/jobs.slice/pack.service/cpu.max": "400000 100000\n",
        "/sys/fs/cgroup/jobs.slice/cpu.max": "300000 100000\n",
        "/sys/fs/cgroup/cpu.max": "max 100000\n",
      ], cores: 3),
    // cgroup v1 (Docker before cgroup v2): the cpu controller's quota.
    Machine(
      files: [
        "/proc/self/cgroup": "4:memory:/docker/abc\n1:cpu,cpuacct:/docker/abc\n0::/\n",
        "/sys/fs/cgroup/cpu/docker/abc/cpu.cfs_quota_us": "100000\n",
        "/sys/fs/cgroup/cpu/docker/abc/cpu.cfs_period_us": "100000\n",
        "/sys/fs/cgroup/cpu/cpu.cfs_quota_us": "-1\n", "/sys/fs/cgroup/cpu/cpu.cfs_period_us": "100000\n",
      ], cores: 1),
    // Nothing readable: the online cores.
    Machine(files: [:], cores: 16),
  ])
  func theSmallestLimitWins(_ machine: Machine) {
    #expect(UsableCores.count(online: 16) { machine.files[$0] } == machine.cores)
  }

  struct Machine: Sendable, CustomTestStringConvertible {
    var files: [String: String]
    var cores: Int
    var testDescription: String { "\(cores) cores from \(files.keys.sorted())" }
  }

  /// This process: at least one core, never more than are online.
  @Test func thisProcessHasAtLeastOneCore() {
    #expect((1...ProcessInfo.processInfo.activeProcessorCount).contains(UsableCores.count))
  }
}
