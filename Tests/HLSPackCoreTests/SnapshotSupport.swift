import Foundation
import HLSPackTestSupport
import Testing

/// Golden playlists live next to this helper, so the location does not depend
/// on the working directory `swift test` was started from.
let snapshotsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

/// Compares a playlist with `Snapshots/<name>.m3u8`.
func assertSnapshot(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
  try assertSnapshot(text, named: "\(name).m3u8", in: snapshotsFolder, sourceLocation: sourceLocation)
}
