import HLSPackCore

/// Each audio entry of a variant's CODECS against the audio its segments and
/// its AUDIO renditions carry (RFC 8216bis §4.4.6.2: every format listed is
/// present; RFC 6381 §3.3: `mp4a.40.N` names audioObjectType N).
///
/// HE-AAC may be signalled implicitly (ISO/IEC 14496-3 §1.6.5.2): the ADTS
/// header, or the esds, says AAC-LC (2) and the SBR and PS data ride in the
/// frames' fill elements. ADTS cannot say anything else, and Apple's HLS
/// Authoring Specification lists `mp4a.40.5` and `mp4a.40.29` for HE-AAC and
/// HE-AACv2 whatever the signalling, so those entries are checked against
/// the SBR and PS tools the bytes use — signalled in the config, or found by
/// a decoder in the first frames — not against the header's object type.
/// `mp4a.40.2` is the AAC-LC core every HE-AAC stream has.
public enum AudioCodecsRules {
  /// What the audio of a variant's media playlists carries.
  public struct Carried: Sendable, Equatable {
    public var codecs: Set<String> = []
    /// Every audio stream's codec was read, and every AAC one's tools are known.
    public var identified = true
    public var toolsKnown = true
    public var sbr = false
    public var ps = false

    /// `playlists`: each media playlist's segment facts.
    public init(_ playlists: [[SegmentMediaFacts]]) {
      for facts in playlists {
        // A playlist whose segments were not read says nothing of its audio.
        if facts.isEmpty { identified = false }
        let codecs = Set(facts.flatMap(\.audioCodecs).map { $0.lowercased() })
        self.codecs.formUnion(codecs)
        if facts.contains(where: \.audioUnidentified) { identified = false }
        guard !codecs.isDisjoint(with: AudioCodecsRules.aacWithCore) else { continue }
        if let tools = facts.lazy.compactMap(\.aacTools).first {
          sbr = sbr || tools.sbr
          ps = ps || tools.ps
        } else {
          toolsKnown = false
        }
      }
    }

    /// Whether `entry` (lowercased) names audio these bytes carry; nil when
    /// that cannot be told (not an audio entry read here, or audio unread).
    func backs(_ entry: String) -> Bool? {
      guard entry.hasPrefix("mp4a.") || AudioCodecsRules.dolby.contains(entry), identified, !codecs.isEmpty else {
        return nil
      }
      switch entry {
      case "mp4a.40.2": return !codecs.isDisjoint(with: AudioCodecsRules.aacWithCore)
      case "mp4a.40.5", "mp4a.40.29":
        let aac = !codecs.isDisjoint(with: AudioCodecsRules.aacWithCore)
        if !aac { return false }
        if entry == "mp4a.40.5" ? sbr : ps { return true }
        return toolsKnown ? false : nil
      default:
        if AudioCodecsRules.mp3.contains(entry) { return !codecs.isDisjoint(with: AudioCodecsRules.mp3) }
        return codecs.contains(entry)
      }
    }

    /// What the bytes carry, for a finding's detail.
    var summary: String {
      let names = codecs.sorted().map { codec in
        guard AudioCodecsRules.aacWithCore.contains(codec) else { return codec }
        let tools = !toolsKnown ? "" : sbr ? (ps ? " with SBR and PS" : " with SBR, no PS") : " without SBR or PS"
        return codec + tools
      }
      return names.joined(separator: ", ")
    }
  }

  static let aacWithCore: Set<String> = ["mp4a.40.2", "mp4a.40.5", "mp4a.40.29"]
  static let dolby: Set<String> = ["ac-3", "ec-3"]
  /// MPEG-1/2 Layer III: audioObjectType 34, or objectTypeIndication 0x69 or 0x6B.
  static let mp3: Set<String> = ["mp4a.40.34", "mp4a.69", "mp4a.6b"]

  /// The findings for one variant's CODECS `entries` (lowercased), and the
  /// carried codecs they already name as what the bytes hold instead, which
  /// `variant.codecs-mismatch` then leaves out (one defect, one finding).
  public static func check(
    entries: [String], carried: Carried, variant: VerifiedMultivariantPlaylist.Variant, file: String
  ) -> (findings: [Finding], explained: Set<String>) {
    var findings: [Finding] = []
    var explained: Set<String> = []
    for entry in entries where carried.backs(entry) == false {
      explained.formUnion(carried.codecs.filter { Self.family(of: $0) == Self.family(of: entry) })
      findings.append(
        Finding(
          VerifyRules.variantCodecsAudioMismatch, file: file, line: variant.line, segment: variant.uri,
          detail: "CODECS names \(entry), but the audio is \(carried.summary)"))
    }
    return (findings, explained)
  }

  private static func family(of codec: String) -> String { dolby.contains(codec) ? "dolby" : "mpeg" }
}
