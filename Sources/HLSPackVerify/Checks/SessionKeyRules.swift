import HLSPackCore

/// EXT-X-SESSION-KEY against the EXT-X-KEY tags of the media playlists
/// (RFC 8216bis §4.4.6.5): a client preloads what the session key says, so
/// it must describe the key the segments use.
public enum SessionKeyRules {
  /// One EXT-X-KEY of a media playlist, its URI resolved from the package root.
  public struct MediaKey: Sendable {
    public var uri: String
    public var method: String
    public var keyFormat: String
    public var keyFormatVersions: String
    public var file: String
    public var line: Int

    public init(_ key: VerifiedMediaPlaylist.Key, uri: String, file: String) {
      self.uri = uri
      method = key.method
      keyFormat = key.value("KEYFORMAT") ?? "identity"
      keyFormatVersions = key.value("KEYFORMATVERSIONS") ?? "1"
      self.file = file
      self.line = key.line
    }
  }

  /// `text` is the multivariant playlist at `file`; `mediaKeys` every key tag
  /// of the media playlists it leads to.
  public static func check(_ text: PlaylistText, file: String, mediaKeys: [MediaKey]) -> [Finding] {
    let folder = file.lastIndex(of: "/").map { String(file[..<$0]) } ?? ""
    var findings: [Finding] = []
    var seen: [[String?]: Int] = [:]
    for tag in text.tags where tag.name == "EXT-X-SESSION-KEY" {
      let key = VerifiedMediaPlaylist.Key(line: tag.line, attributes: tag.attributes)
      findings += PlaylistRules.keySyntax(key, file: file)
      if key.method == "NONE" {
        findings.append(
          Finding(
            VerifyRules.keyMethodInvalid, file: file, line: tag.line, detail: "EXT-X-SESSION-KEY with METHOD=NONE"))
      }
      let identity = ["METHOD", "URI", "IV", "KEYFORMAT", "KEYFORMATVERSIONS"].map { key.value($0) }
      if let first = seen[identity] {
        findings.append(
          Finding(
            VerifyRules.sessionKeyRepeated, file: file, line: tag.line,
            detail: "same as the session key on line \(first)"))
      } else {
        seen[identity] = tag.line
      }
      guard let uri = key.uri else { continue }
      let session = MediaKey(key, uri: URIReference.fromPackageRoot(uri, writtenIn: folder), file: file)
      // A media key with an unknown METHOD is reported by key.method-invalid already.
      let differing = mediaKeys.filter {
        $0.uri == session.uri && PlaylistRules.methods.contains($0.method)
          && ($0.method, $0.keyFormat, $0.keyFormatVersions) != (
            session.method, session.keyFormat, session.keyFormatVersions
          )
      }
      if let media = differing.first {
        findings.append(
          Finding(
            VerifyRules.sessionKeyMismatch, file: file, line: tag.line,
            detail:
              "METHOD=\(session.method),KEYFORMAT=\"\(session.keyFormat)\",KEYFORMATVERSIONS=\"\(session.keyFormatVersions)\" "
              + "but \(media.file):\(media.line) has METHOD=\(media.method),KEYFORMAT=\"\(media.keyFormat)\","
              + "KEYFORMATVERSIONS=\"\(media.keyFormatVersions)\" for the same URI"))
      }
    }
    return findings
  }
}
