import Foundation
import HLSPackTestSupport
import Testing

/// `scripts/bootstrap` installs every command-line tool the suite runs, so that
/// a fresh machine runs every test this one runs instead of skipping some.
@Suite("Bootstrap")
struct BootstrapTests {
  /// The tools the tests run that a minimal Debian lacks (bash, coreutils
  /// and e2fsprogs come with every Debian).
  static let tools = ["ffmpeg", "ffprobe", "openssl", "strace", "curl"]

  /// The words of the script's `packages=( … )` list, comments left out.
  static func bootstrapPackages() throws -> Set<String> {
    let script = try String(
      contentsOf: ShippedProfilesTests.projectRoot.appendingPathComponent("scripts/bootstrap"), encoding: .utf8)
    let list = try #require(script.firstMatch(of: /\npackages=\(([^)]*)\)/)).1
    return Set(
      list.split(separator: "\n").flatMap { line in
        (line.split(separator: "#", maxSplits: 1).first ?? "").split(separator: " ").map(String.init)
      })
  }

  @Test(arguments: tools)
  func bootstrapInstallsThePackageOf(_ tool: String) throws {
    let path = URL(fileURLWithPath: try Command.which(tool)).resolvingSymlinksInPath().path
    let owner = try Command.run("dpkg-query", ["-S", path])
    try #require(owner.status == 0, "\(tool): \(owner.stderr)")
    let package = try #require(owner.text.split(separator: ":").first.map(String.init))
    #expect(
      try Self.bootstrapPackages().contains(package),
      "\(tool) comes from \(package), which scripts/bootstrap does not install")
  }
}
