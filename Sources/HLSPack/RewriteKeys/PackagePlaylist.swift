import Foundation
import HLSPackCore
import HLSPackPackage

/// One `.m3u8` of a package as `rewrite-keys` sees it: where it sits, which
/// rendition it is, its key tags and the segments each one covers.
struct PackagePlaylist {
  /// Path relative to the package folder, with "/" separators.
  let relativePath: String
  let bytes: [UInt8]
  let tags: [KeyURIRewriter.KeyTagLine]
  /// Parallel to `tags`.
  let scopes: [[KeyTagScope.Segment]]
  /// I-frame playlists list byte ranges of segments their media playlist lists already.
  let isIFramesOnly: Bool

  init(relativePath: String, bytes: [UInt8]) {
    self.relativePath = relativePath
    self.bytes = bytes
    tags = KeyURIRewriter.keyTags(in: bytes)
    scopes = KeyTagScope.segments(in: bytes)
    // Once, not per key tag: a playlist that changes key every few segments has thousands.
    isIFramesOnly = String(decoding: bytes, as: UTF8.self).contains("#EXT-X-I-FRAMES-ONLY")
  }

  /// Folder components of the playlist inside the package ([] at the root).
  var folderComponents: [String] { Array(relativePath.split(separator: "/").dropLast().map(String.init)) }

  /// `{rendition}`: the playlist's folder relative to the package, or its file
  /// stem when it sits at the root (a master playlist, or a single-rendition
  /// package such as the ffmpeg CLI writes).
  var rendition: String {
    let folder = folderComponents
    if !folder.isEmpty { return folder.joined(separator: "/") }
    let name = relativePath.split(separator: "/").last.map(String.init) ?? relativePath
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
    return String(name[..<dot])
  }

  /// A path inside the package as seen from this playlist: `../` for every
  /// folder level, so relative URIs resolve in any layout.
  func relativeURI(toPackagePath path: String) -> String {
    String(repeating: "../", count: folderComponents.count) + path
  }

  /// Resolves a relative reference written in this playlist to a path inside
  /// the package, or nil when it climbs above the package root.
  func packagePath(ofRelative reference: String) -> String? {
    PackagePaths.normalize(
      folderComponents + reference.split(separator: "/", omittingEmptySubsequences: false).map(String.init))
  }
}
