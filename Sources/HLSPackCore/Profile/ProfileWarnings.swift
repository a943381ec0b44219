/// Things a profile may do but should be told about; printed before work starts.
extension Profile {
  public var warnings: [String] {
    autoselectWarnings + encryptionWarnings
  }

  /// A player picks among a group's AUTOSELECT=YES members by the attributes
  /// that differ; members alike in all of them leave it guessing, which
  /// RFC 8216bis §4.4.6.1.1 says they SHOULD NOT (conformance F2). Audio
  /// renditions differ only in LANGUAGE here, subtitles in LANGUAGE and FORCED.
  private var autoselectWarnings: [String] {
    var list: [String] = []
    var seen: Set<[String]> = []
    for (i, audio) in audioRenditions.enumerated() where audio.autoselect {
      guard let first = audioRenditions.firstIndex(where: {
        $0.autoselect && $0.groupID == audio.groupID && $0.language == audio.language
      }), first < i, seen.insert([audio.groupID, audio.language]).inserted else { continue }
      list.append(
        "audio[\(first)] and audio[\(i)] are both AUTOSELECT=YES with language \"\(audio.language)\" in group \(audio.groupID), "
          + "so a player cannot choose between them; set \"autoselect\": false on one")
    }
    for (i, track) in subtitles.enumerated() where track.autoselect {
      guard let first = subtitles.firstIndex(where: {
        $0.autoselect && $0.language == track.language && $0.forced == track.forced
      }), first < i, seen.insert(["subtitles", track.language, "\(track.forced)"]).inserted else { continue }
      list.append(
        "subtitles[\(first)] and subtitles[\(i)] are both AUTOSELECT=YES with language \"\(track.language)\""
          + (track.forced ? " and FORCED=YES" : "") + ", so a player cannot choose between them; set \"autoselect\": false on one")
    }
    return list
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
    if case .fixed = encryption.iv {
      list.append("a fixed IV repeats on every segment; use it only to match another tool's output")
    }
    return list
  }
}
