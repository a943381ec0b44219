import Foundation
import HLSPackTestSupport
import Testing

@testable import HLSPackCore

/// Profile paths are resolved from their text alone: a profile with thousands
/// of paths must not cost a file-system lookup per path (bench/profile-load),
/// yet give the paths `standardizedFileURL` gives.
@Suite struct ProfilePathTests {
  @Test(arguments: [
    ("clip.mp4", "/profiles/clip.mp4"),
    ("./media/../clip.mp4", "/profiles/clip.mp4"),
    ("media//clip.mp4", "/profiles/media/clip.mp4"),
    ("../../../../x", "/x"),
    ("/abs/./a/../b", "/abs/b"),
    ("/", "/"),
    ("media/", "/profiles/media"),
    (".hidden/.keys", "/profiles/.hidden/.keys"),
    ("a..b/..c", "/profiles/a..b/..c"),
  ])
  func resolvesLexically(path: String, expected: String) {
    let base = URL(fileURLWithPath: "/profiles", isDirectory: true)
    #expect(ProfileLoader.resolve(path, against: base).path == expected)
    let standardized = path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path)
    #expect(standardized.standardizedFileURL.path == expected)
  }

  @Test func tildeIsExpanded() {
    let home = NSHomeDirectory()
    #expect(ProfileLoader.resolve("~/clip.mp4", against: URL(fileURLWithPath: "/profiles")).path == home + "/clip.mp4")
  }

  /// A folder on disk and a file of the same name resolve alike: no trailing
  /// slash is added from what the disk holds.
  @Test func folderOnDiskGetsNoTrailingSlash() throws {
    let folder = try TemporaryFolder()
    try FileManager.default.createDirectory(
      at: folder.url.appendingPathComponent("media"), withIntermediateDirectories: false)
    let resolved = ProfileLoader.resolve("media", against: folder.url)
    #expect(resolved.path == folder.url.path + "/media")
    #expect(!resolved.absoluteString.hasSuffix("/"))
  }
}
