import HLSPackCore

/// EXT-X-MEDIA tags and their groups (RFC 8216bis §4.4.6.1, §4.4.6.1.1).
public enum RenditionRules {
  static let types: Set<String> = ["AUDIO", "VIDEO", "SUBTITLES", "CLOSED-CAPTIONS"]

  public static func check(_ playlist: VerifiedMultivariantPlaylist, file: String) -> [Finding] {
    var findings: [Finding] = []
    for rendition in playlist.renditions {
      findings += attributes(rendition, file: file)
    }
    var defaults: [String: Int] = [:]
    var names: [String: Int] = [:]
    for rendition in playlist.renditions {
      let group = rendition.type + "/" + rendition.groupID
      if rendition.value("DEFAULT") == "YES" {
        if let first = defaults[group] {
          findings.append(
            Finding(
              VerifyRules.renditionDefaultRepeated, file: file, line: rendition.line,
              detail: "group \(rendition.type) \"\(rendition.groupID)\" already has DEFAULT=YES on line \(first)"))
        } else {
          defaults[group] = rendition.line
        }
      }
      guard let name = rendition.value("NAME") else { continue }
      if let first = names[group + "/" + name] {
        findings.append(
          Finding(
            VerifyRules.renditionNameRepeated, file: file, line: rendition.line,
            detail: "NAME=\"\(name)\" is also on line \(first) in group \"\(rendition.groupID)\""))
      } else {
        names[group + "/" + name] = rendition.line
      }
    }
    return findings
  }

  static func attributes(_ rendition: VerifiedMultivariantPlaylist.Rendition, file: String) -> [Finding] {
    func finding(_ rule: VerifyRule, _ detail: String) -> Finding {
      Finding(rule, file: file, line: rendition.line, detail: detail)
    }
    var findings: [Finding] = []
    let missing = ["TYPE", "GROUP-ID", "NAME"].filter { rendition.value($0) == nil }
    if !missing.isEmpty {
      findings.append(finding(VerifyRules.renditionAttributeInvalid, "no \(missing.joined(separator: ", "))"))
    } else if !types.contains(rendition.type) {
      findings.append(
        finding(VerifyRules.renditionAttributeInvalid, "TYPE=\(rendition.type) is not one of the defined types"))
    }
    if rendition.value("DEFAULT") == "YES", rendition.value("AUTOSELECT") == "NO" {
      findings.append(finding(VerifyRules.renditionDefaultNotAutoselect, "DEFAULT=YES with AUTOSELECT=NO"))
    }
    if rendition.value("FORCED") != nil, rendition.type != "SUBTITLES" {
      findings.append(finding(VerifyRules.renditionForcedNotSubtitles, "FORCED on TYPE=\(rendition.type)"))
    }
    if rendition.type == "CLOSED-CAPTIONS", rendition.uri != nil || rendition.value("INSTREAM-ID") == nil {
      findings.append(
        finding(
          VerifyRules.renditionClosedCaptionsInvalid, rendition.uri != nil ? "has a URI" : "has no INSTREAM-ID"))
    }
    return findings
  }
}
