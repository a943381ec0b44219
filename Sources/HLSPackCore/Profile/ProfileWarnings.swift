/// Things a profile may do but should be told about; printed before work starts.
extension Profile {
  public var warnings: [String] {
    autoselectWarnings + encryptionWarnings
  }

  /// A player picks among a group's AUTOSELECT=YES members by the attributes
  /// that differ; members alike in all of them leave it guessing, which
  /// RFC 8216bis §4.4.6.1.1 says they SHOULD NOT. Audio
  /// renditions differ only in LANGUAGE here, subtitles in LANGUAGE and FORCED.
  private var autoselectWarnings: [String] {
    let audioWarnings = Self.firstRepeats(audioRenditions) { $0.autoselect ? [$0.groupID, $0.language] : nil }.map {
      first, later in
      let member = audioRenditions[later]
      return
        "audio[\(first)] and audio[\(later)] are both AUTOSELECT=YES with language \"\(member.language)\" in group \(member.groupID), "
        + "so a player cannot choose between them; set \"autoselect\": false on one"
    }
    let subtitleWarnings = Self.firstRepeats(subtitles) { $0.autoselect ? [$0.language, "\($0.forced)"] : nil }.map {
      first, later in
      let track = subtitles[later]
      return "subtitles[\(first)] and subtitles[\(later)] are both AUTOSELECT=YES with language \"\(track.language)\""
        + (track.forced ? " and FORCED=YES" : "")
        + ", so a player cannot choose between them; set \"autoselect\": false on one"
    }
    return audioWarnings + subtitleWarnings
  }

  /// For each key that several members share (nil: the member takes no
  /// part), the first member with it and the next one.
  private static func firstRepeats<Member>(_ members: [Member], key: (Member) -> [String]?) -> [(
    first: Int, later: Int
  )] {
    var firstWithKey: [[String]: Int] = [:]
    var pairs: [(first: Int, later: Int)] = []
    var paired: Set<Int> = []
    for (i, member) in members.enumerated() {
      guard let key = key(member) else { continue }
      if let first = firstWithKey[key] {
        if paired.insert(first).inserted { pairs.append((first, i)) }
      } else {
        firstWithKey[key] = i
      }
    }
    return pairs
  }

  private var encryptionWarnings: [String] {
    var list: [String] = []
    let encryption = self.encryption
    guard encryption.method != .none else { return list }
    if encryption.keyURI.scheme == "http" {
      list.append("the key URI uses plain http://, so keys travel unencrypted; use https:// or a custom scheme")
    }
    for path in encryption.exposedKeyFiles {
      list.append("the key file \(path) can be opened by other users; chmod 600 it")
    }
    // A relative path may name the key files; a URI with a scheme or an
    // absolute path names a key server or an app, so the files only leak.
    if encryption.keysFolder == nil, encryption.keyURI.scheme != nil || encryption.keyURI.text.hasPrefix("/") {
      list.append(
        "the keys are written inside the asset (keys/, keys.json) although its key URIs (\(encryption.keyURI.text)) are not "
          + "relative paths, so syncing the asset to a CDN publishes them; set encryption.keys_dir or --keys-dir to keep them out"
      )
    }
    if case .fixed = encryption.iv {
      list.append("a fixed IV repeats on every segment; use it only to match another tool's output")
    }
    return list
  }
}
