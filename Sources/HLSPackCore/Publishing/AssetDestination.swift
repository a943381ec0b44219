import Foundation

/// What may stand where an asset is published. Nothing, unless replacing;
/// then only a folder hlspack wrote (its report.json names hlspack as the
/// tool, or it is an asset's keys folder: keys.json and keys/ alone) or an empty one, and never one holding a file the run reads:
/// `--force` must not delete a folder that merely shares the input's name.
public enum AssetDestination {
  /// Fails, naming `destination`, unless an asset may be published there.
  /// `protecting`: files the run reads (inputs, the profile, sidecars).
  public static func check(_ destination: URL, replace: Bool, protecting: [URL]) throws {
    guard let status = try? FileStatus(path: destination.path, followingLinks: false) else { return }
    let path = destination.path
    if status.kind == .symbolicLink {
      let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
      let dangling = (try? FileStatus(path: path)) == nil
      throw PackError.output(
        path: path,
        reason: "already exists as a symbolic link to \(target)\(dangling ? ", which leads nowhere" : ""); "
          + "an asset is published only as a new folder or in place of one hlspack wrote: remove the link or choose another output folder"
      )
    }
    guard replace else { throw PackError.output(path: path, reason: "already exists (use --force to replace it)") }
    guard status.kind == .folder else {
      throw PackError.output(
        path: path, reason: "already exists and is not a folder; --force replaces only an asset folder hlspack wrote")
    }
    if let held = protecting.first(where: { isInside($0, folder: destination) }) {
      throw PackError.output(
        path: path,
        reason:
          "holds \(held.path), which this run reads; --force never replaces a folder holding an input, the profile or a file it names"
      )
    }
    guard isEmpty(destination) || isHLSPackAsset(destination) || isKeysFolder(destination) else {
      throw PackError.output(
        path: path,
        reason: "already exists and is not an asset hlspack wrote (no report.json naming hlspack); "
          + "--force replaces only those: remove it yourself or choose another output folder")
    }
  }

  private static func isEmpty(_ folder: URL) -> Bool {
    (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty == true
  }

  private struct Marker: Decodable {
    struct Tool: Decodable { var name: String }
    var tool: Tool
  }

  /// report.json's `tool.name`, as `AssetReport` writes it.
  private static func isHLSPackAsset(_ folder: URL) -> Bool {
    let report = folder.appendingPathComponent("report.json").path
    guard let bytes = try? SmallFile.read(report, limit: 256 << 20),
      let marker = try? JSONDecoder().decode(Marker.self, from: Data(bytes))
    else { return false }
    return marker.tool.name == AssetReport.Tool.hlspack
  }

  /// An asset's keys folder as `encryption.keys_dir` has them: keys.json
  /// (which names no tool) and keys/, nothing else.
  private static func isKeysFolder(_ folder: URL) -> Bool {
    let names = Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
    return names.contains("keys.json") && names.isSubset(of: ["keys.json", "keys"])
  }

  /// Whether `file` lies below `folder`, links resolved, compared byte for
  /// byte (Swift's == takes the NFC and NFD spellings of a name as one).
  static func isInside(_ file: URL, folder: URL) -> Bool {
    let inside = Array(resolved(file).utf8), root = Array((resolved(folder) + "/").utf8)
    return inside.starts(with: root)
  }

  /// The path with every link resolved; for a file that does not exist,
  /// its deepest existing folder resolved and the rest appended.
  private static func resolved(_ url: URL) -> String {
    let absolute = url.standardizedFileURL
    if let real = realpath(absolute.path, nil) {
      defer { free(real) }
      return String(cString: real)
    }
    let parent = absolute.deletingLastPathComponent()
    guard parent.path != absolute.path else { return absolute.path }
    let folder = resolved(parent)
    return folder + (folder.hasSuffix("/") ? "" : "/") + absolute.lastPathComponent
  }
}
