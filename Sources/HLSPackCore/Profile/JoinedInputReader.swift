import Foundation

/// Reads the profile's `inputs`: a path, or an asset joined from parts
/// (`{"asset": NAME, "parts": [{"file": A, "encryption": "none"}, {"file": B}]}`).
enum JoinedInputReader {
  static func read(_ list: [JSONValue], file: String, baseDirectory: URL) throws -> (
    plain: [URL], joined: [JoinedInput]
  ) {
    var plain: [URL] = []
    var joined: [JoinedInput] = []
    var names = Set<String>()
    for (i, item) in list.enumerated() {
      switch item {
      case .string(let p) where !p.isEmpty:
        plain.append(ProfileLoader.resolve(p, inFolder: baseDirectory.path))
      case .object:
        let input = try readJoined(
          try FieldReader(item, file: file, path: "$.inputs[\(i)]"), index: i, baseDirectory: baseDirectory)
        guard names.insert(input.asset).inserted else {
          throw ProfileError(
            file: file, path: "$.inputs[\(i)].asset", message: "duplicate asset name \"\(input.asset)\"")
        }
        joined.append(input)
      default:
        throw ProfileError(
          file: file, path: "$.inputs[\(i)]",
          message: "expected a non-empty path string or an object {\"asset\": NAME, \"parts\": [...]}")
      }
    }
    return (plain, joined)
  }

  private static func readJoined(_ reader: FieldReader, index: Int, baseDirectory: URL) throws -> JoinedInput {
    var r = reader
    let asset = try r.required("asset") { try $0.string($1) }
    guard ProfileLoader.isSafePathComponent(asset), !ProfileLoader.reservedNames.contains(asset) else {
      throw r.error(
        "asset",
        "\"\(asset)\" is not a safe folder name: use letters, digits, '.', '_' and '-', not starting with '.' or '-'")
    }
    let list = try r.required("parts") { try $0.array($1) }
    guard !list.isEmpty else { throw r.error("parts", "must list at least one part") }
    let parts = try list.enumerated().map { j, item in
      var p = try FieldReader(item, file: r.file, path: "\(r.path).parts[\(j)]")
      let path = try p.required("file") { try $0.string($1) }
      guard !path.isEmpty else { throw p.error("file", "must not be empty") }
      // Only a clear part can be asked for: every other part follows the profile's encryption.
      let clear = try p.oneOf("encryption", ["none"]) != nil
      try p.finish()
      return JoinedInput.Part(
        file: ProfileLoader.resolve(path, inFolder: baseDirectory.path), clear: clear,
        field: "inputs[\(index)].parts[\(j)].file")
    }
    try r.finish()
    return JoinedInput(asset: asset, parts: parts)
  }

  /// What a joined asset cannot have: subtitles are timed against one source,
  /// a rung's own pre-encoded source would stand for every part, a single
  /// file addresses one init section, and an encrypted init section has one
  /// key tag before the first EXT-X-MAP, where a later part's map is written clear.
  static func checkCombinations(_ joined: [JoinedInput], profile: Profile, file: String) throws {
    guard !joined.isEmpty else { return }
    if !profile.subtitles.isEmpty {
      throw ProfileError(
        file: file, path: "$.subtitles",
        message: "cannot be used with an input made of parts (\"parts\" in \"inputs\"): the cues are timed for one source")
    }
    if let i = profile.video.firstIndex(where: { $0.source != nil }) {
      throw ProfileError(
        file: file, path: "$.video[\(i)].source",
        message: "cannot be used with an input made of parts: each part is the source of every rung")
    }
    if profile.segment.singleFile {
      throw ProfileError(
        file: file, path: "$.segment.single_file",
        message: "cannot be used with an input made of parts: a part's own init section would need a range of its own")
    }
    if profile.encryption.encryptInit {
      throw ProfileError(
        file: file, path: "$.encryption.encrypt_init",
        message: "cannot be used with an input made of parts: each later part's EXT-X-MAP is written clear")
    }
  }
}
