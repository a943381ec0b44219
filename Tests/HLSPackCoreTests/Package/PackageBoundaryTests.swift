import Foundation
import HLSPackTestSupport
import Testing

@testable import HLSPackCore
@testable import HLSPackPackage

/// The one definition of a file inside a package, as verify, rewrite-keys
/// and serve use it: its real path, links resolved, below the folder's.
@Suite struct PackageBoundaryTests {
  let folder: TemporaryFolder
  let package: URL
  let outside: URL

  /// package/a/seg.ts, package/inner (a link to a/seg.ts), package/escape (a link
  /// to a file outside), package/away (a link to a folder outside), outside/secret.
  init() throws {
    folder = try TemporaryFolder()
    package = folder.url.appendingPathComponent("package")
    outside = folder.url.appendingPathComponent("outside")
    let files = FileManager.default
    try files.createDirectory(at: package.appendingPathComponent("a"), withIntermediateDirectories: true)
    try files.createDirectory(at: outside, withIntermediateDirectories: true)
    try Data([1]).write(to: package.appendingPathComponent("a/seg.ts"))
    try Data([2]).write(to: outside.appendingPathComponent("secret"))
    try files.createSymbolicLink(atPath: package.appendingPathComponent("inner").path, withDestinationPath: "a/seg.ts")
    try files.createSymbolicLink(
      atPath: package.appendingPathComponent("escape").path, withDestinationPath: "../outside/secret")
    try files.createSymbolicLink(atPath: package.appendingPathComponent("away").path, withDestinationPath: outside.path)
  }

  @Test func aFileIsInsideByItsRealPath() throws {
    let boundary = PackageBoundary(folder: package.path)
    let real = try #require(boundary.realPath)
    let file = try #require(boundary.locate(package.appendingPathComponent("a/../a/seg.ts").path))
    #expect(file == .init(realPath: real + "/a/seg.ts", kind: .regular, isInside: true))
    // A link that stays in the package reaches its file; one that leads out does not.
    #expect(boundary.locate(package.appendingPathComponent("inner").path)?.realPath == real + "/a/seg.ts")
    #expect(boundary.locate(package.appendingPathComponent("inner").path)?.isInside == true)
    let escape = try #require(boundary.locate(package.appendingPathComponent("escape").path))
    #expect(!escape.isInside && escape.kind == .regular && escape.realPath.hasSuffix("/outside/secret"))
    #expect(boundary.locate(package.appendingPathComponent("away/secret").path)?.isInside == false)
    #expect(boundary.locate(package.appendingPathComponent("missing").path) == nil)
    // The folder itself, and a sibling whose name starts with the folder's, are not files of it.
    #expect(boundary.locate(package.path)?.isInside == false)
    try Data([3]).write(to: folder.url.appendingPathComponent("package2"))
    #expect(boundary.locate(folder.url.appendingPathComponent("package2").path)?.isInside == false)
  }

  @Test func aMissingFolderHoldsNothing() throws {
    let boundary = PackageBoundary(folder: folder.url.appendingPathComponent("none").path)
    #expect(boundary.realPath == nil)
    #expect(boundary.locate(package.appendingPathComponent("a/seg.ts").path)?.isInside == false)
  }

  /// The root folder holds every other file (a prefix of "//" held none).
  @Test func theRootFolderHoldsEveryFile() throws {
    let boundary = PackageBoundary(folder: "/")
    #expect(boundary.locate(package.appendingPathComponent("a/seg.ts").path)?.isInside == true)
    #expect(boundary.locate("/")?.isInside == false)
  }

  /// verify and rewrite-keys read through the same boundary, telling what a file is before where it is.
  @Test func resolveInsideUsesTheBoundary() throws {
    let real = try #require(PackageBoundary(folder: package.path).realPath)
    let resolve = { PackageFiles.resolveInside(package.appendingPathComponent($0), package: package) }
    guard case .inside(let inner) = resolve("inner") else { throw FixtureError("inner: \(resolve("inner"))") }
    #expect(inner == real + "/a/seg.ts")
    guard case .outside = resolve("escape") else { throw FixtureError("escape: \(resolve("escape"))") }
    guard case .notRegular("a folder") = resolve("away") else { throw FixtureError("away: \(resolve("away"))") }
    guard case .missing = resolve("none") else { throw FixtureError("none: \(resolve("none"))") }
  }

  @Test func plainPathsRefuseDotSegments() {
    #expect(PackagePaths.plain("/a//b/c.ts") == "a/b/c.ts")
    #expect(PackagePaths.plain("/") == "")
    #expect(PackagePaths.plain("a/../b") == nil)
    #expect(PackagePaths.plain("./a") == nil)
    #expect(PackagePaths.plain("a\0b") == nil)
    #expect(PackagePaths.plain("a/..b/.c") == "a/..b/.c")
  }
}
