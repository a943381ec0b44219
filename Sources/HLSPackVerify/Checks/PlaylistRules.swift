import HLSPackCore

/// Rules over one playlist's text, with no file or byte of media read.
/// `file` is the playlist's path relative to the package, for locations.
public enum PlaylistRules {
  /// EXTM3U must be the whole first line (RFC 8216bis §4.4.1.1); a BOM in
  /// front of it fails too (§4.1).
  /// The rules every playlist, media or multivariant, must pass.
  public static func common(_ text: PlaylistText, file: String) -> [Finding] {
    header(text, file: file) + VersionRules.check(text, file: file) + NumberRules.check(text, file: file)
  }

  static func header(_ text: PlaylistText, file: String) -> [Finding] {
    guard text.firstLine != Array("#EXTM3U".utf8) else { return [] }
    let found = text.firstLine.map { String(decoding: $0.prefix(40), as: UTF8.self) } ?? "an empty file"
    return [Finding(VerifyRules.extm3uMissing, file: file, line: 1, detail: "first line is \(found.debugDescription)")]
  }

  public static func media(_ playlist: VerifiedMediaPlaylist, file: String) -> [Finding] {
    extinf(playlist, file: file) + targetDuration(playlist, file: file) + endList(playlist, file: file)
      + mapBeforeKey(playlist, file: file) + mediaSequence(playlist, file: file)
      + discontinuitySequence(playlist, file: file)
      + playlist.keys.flatMap { keySyntax($0, file: file) }
  }

  static func targetDuration(_ playlist: VerifiedMediaPlaylist, file: String) -> [Finding] {
    guard let target = playlist.targetDuration, target >= 1 else {
      let detail =
        playlist.targetDurationText.map {
          "EXT-X-TARGETDURATION:\(PlaylistNumber.shown($0)) is not a decimal integer ≥ 1"
        }
        ?? "no EXT-X-TARGETDURATION tag"
      return [Finding(VerifyRules.targetDurationMissing, file: file, line: playlist.targetDurationLine, detail: detail)]
    }
    return playlist.segments.compactMap { segment in
      // Half-way values round up, as the spec's "nearest integer" is usually read.
      // Compared as Doubles: a finite EXTINF may be far beyond Int's range.
      guard let duration = segment.duration, duration.rounded(.toNearestOrAwayFromZero) > Double(target) else {
        return nil
      }
      return Finding(
        VerifyRules.targetDurationExceeded, file: file, line: segment.line, segment: segment.uri,
        detail:
          "EXTINF \(PlaylistNumber.shown(segment.durationText ?? "\(duration)")) rounds to \(PlaylistNumber.whole(duration)) > EXT-X-TARGETDURATION \(target)"
      )
    }
  }

  static func extinf(_ playlist: VerifiedMediaPlaylist, file: String) -> [Finding] {
    playlist.segments.filter { $0.duration == nil }.map {
      let detail =
        $0.durationText.map { "EXTINF:\(PlaylistNumber.shown($0)) is not a finite decimal-floating-point duration" }
        ?? "no EXTINF before it"
      return Finding(VerifyRules.extinfMissing, file: file, line: $0.line, segment: $0.uri, detail: detail)
    }
  }

  static func endList(_ playlist: VerifiedMediaPlaylist, file: String) -> [Finding] {
    guard playlist.playlistType == "VOD", !playlist.hasEndList else { return [] }
    return [Finding(VerifyRules.endListMissing, file: file, detail: "EXT-X-PLAYLIST-TYPE:VOD without EXT-X-ENDLIST")]
  }

  /// A key written before the first EXT-X-MAP applies to the initialization
  /// section too, which clients then try to decrypt. Only AES-128 defines an
  /// encrypted one (RFC 8216bis §4.4.4.5): whether such a section is clear,
  /// or decrypts, is for its bytes to say (`checkEncryptedMap`).
  static func mapBeforeKey(_ playlist: VerifiedMediaPlaylist, file: String) -> [Finding] {
    guard let firstMap = playlist.mapLines.min(),
      let key = playlist.keys.first(where: { $0.line < firstMap && $0.method != "NONE" && $0.method != "AES-128" })
    else { return [] }
    return [
      Finding(
        VerifyRules.mapAfterKey, file: file, line: key.line,
        detail: "EXT-X-KEY on line \(key.line) comes before the first EXT-X-MAP on line \(firstMap)")
    ]
  }

  /// One EXT-X-MEDIA-SEQUENCE at most, before the first segment, with a
  /// decimal-integer (RFC 8216bis §4.2, §4.4.3, §4.4.3.2): clients number
  /// segments, and derive the IVs of segments without IV=, from it.
  static func mediaSequence(_ playlist: VerifiedMediaPlaylist, file: String) -> [Finding] {
    playlist.mediaSequenceTags.enumerated().compactMap { index, tag in
      let detail: String
      if index > 0 {
        detail = "a second EXT-X-MEDIA-SEQUENCE (the first is on line \(playlist.mediaSequenceTags[0].line))"
      } else if tag.afterSegment {
        detail = "EXT-X-MEDIA-SEQUENCE comes after the first segment"
      } else if PlaylistNumber.decimalInteger(tag.value) == nil {
        detail = "EXT-X-MEDIA-SEQUENCE:\(PlaylistNumber.shown(tag.value)) is not a decimal-integer"
      } else {
        return nil
      }
      return Finding(VerifyRules.mediaSequenceInvalid, file: file, line: tag.line, detail: detail)
    }
  }

  /// One EXT-X-DISCONTINUITY-SEQUENCE at most, before the first segment and
  /// any EXT-X-DISCONTINUITY, with a decimal-integer (RFC 8216bis §4.4.3.3):
  /// clients match the discontinuities of variants by it.
  static func discontinuitySequence(_ playlist: VerifiedMediaPlaylist, file: String) -> [Finding] {
    playlist.discontinuitySequenceTags.enumerated().compactMap { index, tag in
      let detail: String
      if index > 0 {
        detail =
          "a second EXT-X-DISCONTINUITY-SEQUENCE (the first is on line \(playlist.discontinuitySequenceTags[0].line))"
      } else if tag.late {
        detail = "EXT-X-DISCONTINUITY-SEQUENCE comes after a segment or an EXT-X-DISCONTINUITY"
      } else if PlaylistNumber.decimalInteger(tag.value) == nil {
        detail = "EXT-X-DISCONTINUITY-SEQUENCE:\(PlaylistNumber.shown(tag.value)) is not a decimal-integer"
      } else {
        return nil
      }
      return Finding(VerifyRules.discontinuitySequenceInvalid, file: file, line: tag.line, detail: detail)
    }
  }

  static let methods: Set<String> = ["NONE", "AES-128", "SAMPLE-AES", "SAMPLE-AES-CTR"]

  static func keySyntax(_ key: VerifiedMediaPlaylist.Key, file: String) -> [Finding] {
    func finding(_ rule: VerifyRule, _ detail: String) -> Finding {
      Finding(rule, file: file, line: key.line, detail: detail)
    }
    guard let method = key.attributes.first(where: { $0.name == "METHOD" }), !method.quoted,
      methods.contains(method.value)
    else {
      return [finding(VerifyRules.keyMethodInvalid, "METHOD is \(key.value("METHOD").map { "\"\($0)\"" } ?? "absent")")]
    }
    if method.value == "NONE" {
      let others = key.attributes.map(\.name).filter { $0 != "METHOD" }
      return others.isEmpty
        ? [] : [finding(VerifyRules.keyNoneWithAttributes, "also has \(others.joined(separator: ", "))")]
    }
    var findings: [Finding] = []
    if key.uri == nil { findings.append(finding(VerifyRules.keyURIMissing, "no URI=\"…\"")) }
    if let iv = key.attributes.first(where: { $0.name == "IV" }),
      iv.quoted || VerifiedMediaPlaylist.Key.parseIV(iv.value) == nil
    {
      findings.append(finding(VerifyRules.keyIVMalformed, "IV=\(iv.quoted ? "\"\(iv.value)\"" : iv.value)"))
    }
    for name in ["KEYFORMAT", "KEYFORMATVERSIONS"] {
      guard let attribute = key.attributes.first(where: { $0.name == name }) else { continue }
      let versionsValid =
        name != "KEYFORMATVERSIONS"
        || attribute.value.split(separator: "/", omittingEmptySubsequences: false)
          .allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
      if !attribute.quoted || attribute.value.isEmpty || !versionsValid {
        findings.append(
          finding(
            VerifyRules.keyFormatMalformed, "\(name)=\(attribute.quoted ? "\"\(attribute.value)\"" : attribute.value)"))
      }
    }
    return findings
  }

  /// Every group a variant names resolves to an EXT-X-MEDIA of that TYPE
  /// (RFC 8216bis §4.4.6.2); CLOSED-CAPTIONS=NONE names none.
  public static func groups(_ playlist: VerifiedMultivariantPlaylist, file: String) -> [Finding] {
    playlist.variants.filter { !$0.iFrame }.flatMap { variant in
      VerifiedMultivariantPlaylist.groupAttributes.compactMap { pair -> Finding? in
        let (attribute, type) = pair
        guard let group = variant.attributes.first(where: { $0.name == attribute }),
          !(attribute == "CLOSED-CAPTIONS" && !group.quoted && group.value == "NONE"),
          !playlist.renditions.contains(where: { $0.type == type && $0.groupID == group.value })
        else { return nil }
        return Finding(
          VerifyRules.groupUnresolved, file: file, line: variant.line,
          detail: "\(attribute)=\"\(group.value)\" but no EXT-X-MEDIA has TYPE=\(type),GROUP-ID=\"\(group.value)\"")
      }
    }
  }
}
