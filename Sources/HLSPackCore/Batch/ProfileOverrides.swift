/// The settings a catalog sets per title (the key a key service issued, its
/// URI, a seed, the subtitle files), written into the profile's own fields
/// before it is read, so they are checked by the same rules and messages.
public struct ProfileOverrides: Sendable, Equatable {
  public enum Subtitles: Sendable, Equatable {
    /// The file of the profile's one subtitle track.
    case onlyTrack(String)
    /// Files by subtitle track id.
    case byID([String: String])
  }

  /// `key_hex`, `key_env` or `key_file`, and its value (a key file's path already absolute).
  public var keySource: (field: String, value: String)?
  public var keyID: String?
  public var keyURI: String?
  public var seed: String?
  public var subtitles: Subtitles?

  public init() {}

  public static func == (a: Self, b: Self) -> Bool {
    a.keySource?.field == b.keySource?.field && a.keySource?.value == b.keySource?.value && a.keyID == b.keyID
      && a.keyURI == b.keyURI && a.seed == b.seed && a.subtitles == b.subtitles
  }

  /// The manifest fields given, for messages.
  public var fields: [String] {
    [
      keySource?.field, keyID.map { _ in "key_id" }, keyURI.map { _ in "key_uri" }, seed.map { _ in "seed" },
      subtitles.map { _ in "subtitles" },
    ].compactMap { $0 }
  }

  /// The manifest field a profile field stands for, if an override set it.
  public func field(forProfilePath path: String) -> String? {
    let encryption = ["key_hex", "key_env", "key_file", "key_id", "key_uri", "seed"]
    if let name = encryption.first(where: { path == "$.encryption.\($0)" }), fields.contains(name) { return name }
    if path.hasPrefix("$.subtitles["), subtitles != nil { return "subtitles" }
    return nil
  }

  /// `root` (a profile document) with these settings in place. Fails, with the
  /// manifest field, when the profile has no place for one of them.
  public func applied(to root: JSONValue) throws(OverrideFailure) -> JSONValue {
    guard case .object(var profile) = root else { return root }
    if keySource != nil || keyID != nil || keyURI != nil || seed != nil {
      guard case .object(var encryption) = profile["encryption"] ?? .object([:]) else { return root }
      if let (field, value) = keySource {
        for name in ["key_file", "key_hex", "key_env", "key_info"] { encryption[name] = nil }
        encryption[field] = .string(value)
      }
      if let keyID { encryption["key_id"] = .string(keyID) }
      if let keyURI { encryption["key_uri"] = .string(keyURI) }
      if let seed { encryption["seed"] = .string(seed) }
      profile["encryption"] = .object(encryption)
    }
    if let subtitles { profile["subtitles"] = try Self.subtitles(subtitles, in: profile["subtitles"]) }
    return .object(profile)
  }

  private static func subtitles(_ files: Subtitles, in list: JSONValue?) throws(OverrideFailure) -> JSONValue {
    guard case .array(var tracks) = list ?? .array([]) else { return list ?? .null }
    // A track's id defaults to its language, as the profile reads it.
    func id(_ track: JSONValue) -> String? {
      guard case .object(let fields) = track else { return nil }
      if case .string(let id)? = fields["id"] { return id }
      if case .string(let language)? = fields["language"] { return language }
      return nil
    }
    let byID: [String: String]
    switch files {
    case .onlyTrack(let path):
      guard tracks.count == 1, let only = id(tracks[0]) else {
        throw OverrideFailure(
          field: "subtitles",
          message: tracks.isEmpty
            ? "the profile has no subtitle track to give a file"
            : "the profile has \(tracks.count) subtitle tracks; name each file by track id (subtitles.<id>)")
      }
      byID = [only: path]
    case .byID(let given): byID = given
    }
    let known = tracks.map(id)
    for trackID in byID.keys.sorted() where !known.contains(trackID) {
      throw OverrideFailure(
        field: "subtitles.\(trackID)",
        message:
          "the profile has no subtitle track \"\(trackID)\" (it has: \(known.compactMap { $0 }.joined(separator: ", ")))"
      )
    }
    for (i, track) in tracks.enumerated() {
      guard case .object(var fields) = track, let trackID = id(track), let path = byID[trackID] else { continue }
      fields["file"] = .string(path)
      tracks[i] = .object(fields)
    }
    return .array(tracks)
  }
}

public struct OverrideFailure: Error, Equatable {
  public var field: String
  public var message: String
}
