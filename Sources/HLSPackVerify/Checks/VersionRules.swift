import HLSPackCore

/// EXT-X-VERSION against the features a playlist uses (RFC 8216bis §8):
/// a client of an older version may not parse what the playlist relies on.
public enum VersionRules {
  /// The features of a playlist that need a version above 1, with the
  /// lowest version each needs and the first line using it.
  public static func requirements(_ text: PlaylistText) -> [(version: Int, feature: String, line: Int)] {
    let iFramesOnly = text.tags.contains { $0.name == "EXT-X-I-FRAMES-ONLY" }
    var found: [(version: Int, feature: String, line: Int)] = []
    func need(_ version: Int, _ feature: String, _ line: Int) {
      if !found.contains(where: { $0.feature == feature }) { found.append((version, feature, line)) }
    }
    for tag in text.tags {
      switch tag.name {
      case "EXT-X-KEY", "EXT-X-SESSION-KEY":
        if tag.attribute("IV") != nil { need(2, "the IV attribute", tag.line) }
        if tag.attribute("KEYFORMAT") != nil || tag.attribute("KEYFORMATVERSIONS") != nil {
          need(5, "KEYFORMAT or KEYFORMATVERSIONS", tag.line)
        }
        if tag.attribute("METHOD")?.value == "SAMPLE-AES" { need(5, "METHOD=SAMPLE-AES", tag.line) }
      case "EXTINF":
        let duration = tag.value.prefix { $0 != "," }
        if duration.contains(".") { need(3, "decimal-floating-point EXTINF durations", tag.line) }
      case "EXT-X-BYTERANGE": need(4, "EXT-X-BYTERANGE", tag.line)
      case "EXT-X-I-FRAMES-ONLY": need(4, "EXT-X-I-FRAMES-ONLY", tag.line)
      case "EXT-X-MAP":
        if iFramesOnly { need(5, "EXT-X-MAP in an I-frame playlist", tag.line) } else { need(6, "EXT-X-MAP", tag.line) }
      default: break
      }
    }
    return found
  }

  public static func check(_ text: PlaylistText, file: String) -> [Finding] {
    let versions = text.tags.filter { $0.name == "EXT-X-VERSION" }
    var findings = versions.dropFirst().map {
      Finding(
        VerifyRules.versionRepeated, file: file, line: $0.line, detail: "EXT-X-VERSION also on line \(versions[0].line)"
      )
    }
    let declaredTag = versions.first
    let declared = declaredTag.map { Int($0.value) ?? 0 } ?? 1
    guard let highest = requirements(text).max(by: { $0.version < $1.version }), highest.version > declared else {
      return findings
    }
    findings.append(
      Finding(
        VerifyRules.versionTooLow, file: file, line: declaredTag?.line ?? highest.line,
        detail: "\(highest.feature) (line \(highest.line)) needs version \(highest.version); "
          + (declaredTag.map { "EXT-X-VERSION:\($0.value)" } ?? "no EXT-X-VERSION (version 1)")))
    return findings
  }
}
