import Foundation

/// Reads alternate audio renditions (`audio` as a list) and `subtitles`, and
/// checks the group rules of RFC 8216bis §4.4.6.1 before any work starts.
enum MediaGroupsReader {
  static func audioRenditions(_ list: [JSONValue], file: String) throws -> [AudioRendition] {
    var renditions: [AudioRendition] = []
    var given: [AudioMemberFlags.Given] = []
    var ids: Set<String> = []
    var groupNames: Set<[String]> = []
    for (i, item) in list.enumerated() {
      var r = try FieldReader(item, file: file, path: "$.audio[\(i)]")
      let name = try r.required("name") { try $0.quotedString($1) }
      let language = try readLanguage(&r)
      let settings = try ProfileLoader.readAudioFields(&r)
      if settings.codec == .copy { throw r.error("codec", "\"copy\" is not supported for alternate audio renditions") }
      let track: AudioTrackSelector
      switch r.value("track") {
      case nil: track = .language(language)
      case .number(let n)? where n >= 0 && n.rounded() == n && n < 64: track = .index(Int(n))
      case .string(let s)? where !s.isEmpty: track = .language(s)
      default: throw r.error("track", "expected the source audio track's index (0, 1, …) or language tag")
      }
      let id = try r.quotedString("id") ?? "\(language)-\(settings.codec.rawValue)-\(settings.channels)ch"
      guard ProfileLoader.isSafePathComponent(id) else { throw r.error("id", "\"\(id)\" is not a safe folder name") }
      let flags = AudioMemberFlags.Given(isDefault: try r.bool("default"), autoselect: try r.bool("autoselect"))
      if flags.isDefault == true, flags.autoselect == false {
        throw r.error("autoselect", "must be true when default is true (RFC 8216bis §4.4.6.1)")
      }
      try r.finish()
      let rendition = AudioRendition(
        id: id, name: name, language: language, settings: settings, track: track, isDefault: false, autoselect: true)
      guard ids.insert(id).inserted else { throw r.error("id", "duplicate audio rendition id \"\(id)\"") }
      guard groupNames.insert([rendition.groupID, name]).inserted else {
        throw r.error("name", "duplicate NAME \"\(name)\" in group \(rendition.groupID)")
      }
      renditions.append(rendition)
      given.append(flags)
    }
    try AudioMemberFlags.resolve(&renditions, given: given, file: file)
    return renditions
  }

  static func subtitles(_ list: [JSONValue], file: String, baseDirectory: URL) throws -> [SubtitleTrack] {
    var tracks: [SubtitleTrack] = []
    var ids: Set<String> = []
    var names: Set<String> = []
    let basePath = baseDirectory.path
    for (i, item) in list.enumerated() {
      var r = try FieldReader(item, file: file, path: "$.subtitles[\(i)]")
      let name = try r.required("name") { try $0.quotedString($1) }
      let language = try readLanguage(&r)
      let path = try r.required("file") { try $0.string($1) }
      let lower = path.lowercased()
      guard lower.hasSuffix(".vtt") || lower.hasSuffix(".srt") else {
        throw r.error("file", "must be a WebVTT (.vtt) or SRT (.srt) file")
      }
      let id = try r.quotedString("id") ?? language
      guard ProfileLoader.isSafePathComponent(id) else { throw r.error("id", "\"\(id)\" is not a safe folder name") }
      let isDefault = try r.bool("default") ?? false
      let autoselect = try r.bool("autoselect") ?? true
      let forced = try r.bool("forced") ?? false
      if isDefault, !autoselect { throw r.error("autoselect", "must be true when default is true") }
      try r.finish()
      guard ids.insert(id).inserted else { throw r.error("id", "duplicate subtitle id \"\(id)\" (set \"id\")") }
      guard names.insert(name).inserted else { throw r.error("name", "duplicate subtitle NAME \"\(name)\"") }
      if isDefault, tracks.contains(where: \.isDefault) {
        throw r.error("default", "another subtitle track is already the default")
      }
      tracks.append(
        SubtitleTrack(
          id: id, name: name, language: language, file: ProfileLoader.resolvedPath(path, inFolder: basePath),
          isDefault: isDefault, autoselect: autoselect, forced: forced))
    }
    return tracks
  }

  /// RFC 5646 shape (RFC 8216bis §4.4.6.1).
  private static func readLanguage(_ r: inout FieldReader) throws -> String {
    let language = try r.required("language") { try $0.quotedString($1) }
    let parts = language.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
    func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    let valid =
      parts.first.map { (2...3).contains($0.count) && $0.allSatisfy(isLetter) } == true
      && parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { isLetter($0) || isDigit($0) } }
    guard valid else {
      throw r.error("language", "\"\(language)\" is not a BCP 47 language tag such as \"en\" or \"pt-BR\"")
    }
    return language
  }
}
