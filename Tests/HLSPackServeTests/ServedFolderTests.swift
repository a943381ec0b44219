import Foundation
import HLSPackTestSupport
import Testing

@testable import HLSPackServe

/// The served folder finds files through the package layer's boundary: what
/// verify and rewrite-keys would not read, serve does not serve or read.
@Suite("serve: the served folder")
struct ServedFolderTests {
  let root: URL
  let folder: ServedFolder

  /// root/served: index.m3u8 naming keys/k.bin, keys/k.bin, a link `away` to a
  /// folder outside, and a link `leak.m3u8` to a playlist outside naming secret.bin as a key.
  init() throws {
    root = try ScratchFolder.make("served")
    let served = root.appendingPathComponent("served"), outside = root.appendingPathComponent("outside")
    let files = FileManager.default
    try files.createDirectory(at: served.appendingPathComponent("keys"), withIntermediateDirectories: true)
    try files.createDirectory(at: outside, withIntermediateDirectories: true)
    try Data("#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"keys/k.bin\"\n".utf8).write(
      to: served.appendingPathComponent("index.m3u8"))
    try Data(repeating: 1, count: 16).write(to: served.appendingPathComponent("keys/k.bin"))
    try Data("#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"secret.bin\"\n".utf8).write(
      to: outside.appendingPathComponent("leak.m3u8"))
    try files.createSymbolicLink(atPath: served.appendingPathComponent("away").path, withDestinationPath: outside.path)
    try files.createSymbolicLink(
      atPath: served.appendingPathComponent("leak.m3u8").path,
      withDestinationPath: outside.appendingPathComponent("leak.m3u8").path)
    folder = try ServedFolder(path: served.path)
  }

  @Test func linksOutOfTheFolderAreForbiddenWhateverTheyLeadTo() {
    #expect(folder.lookup(requestPath: "/leak.m3u8") == .forbidden)
    // A folder outside is forbidden too, not merely not found.
    #expect(folder.lookup(requestPath: "/away") == .forbidden)
    #expect(folder.lookup(requestPath: "/away/leak.m3u8") == .forbidden)
    #expect(folder.lookup(requestPath: "/keys") == .notFound)
    #expect(
      folder.lookup(requestPath: "/keys/k.bin")
        == .file(realPath: folder.realPath + "/keys/k.bin", relativePath: "keys/k.bin"))
  }

  /// A playlist behind a link out of the folder is not served, so the key paths it names are not keys.
  @Test func keyPathsComeOnlyFromPlaylistsInsideTheFolder() {
    let keys = KeyURIs()
    #expect(keys.contains("keys/k.bin", scanning: folder))
    #expect(!keys.contains("secret.bin", scanning: folder))
  }
}
