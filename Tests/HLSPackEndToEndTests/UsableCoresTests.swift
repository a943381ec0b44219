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

  @Test func quotasRoundUpToWholeCores() {
    #expect(UsableCores.quota(cpuMax: "200000 100000\n") == 2)
    #expect(UsableCores.quota(cpuMax: "150000 100000\n") == 2)
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
  }

  /// This process: at least one core, never more than are online.
  @Test func thisProcessHasAtLeastOneCore() {
    #expect((1...ProcessInfo.processInfo.activeProcessorCount).contains(UsableCores.count))
  }
}
