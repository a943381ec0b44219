import HLSPackCore

/// Builds the master playlist from what each rendition measured: variants
/// (once per audio group), EXT-X-MEDIA groups, audio-only variants, and
/// warnings about the ladder's shape.
struct MultivariantPlan {
  /// One written rendition and what it measured.
  struct Measured {
    var playlist: String
    var facts: WrittenStreamFacts
    var peak: Int
    var average: Int

    /// Its playlist and rates as `HeaviestCombination` counts them.
    var combined: (playlist: String, rates: HeaviestCombination.Rates) {
      (playlist, HeaviestCombination.Rates(peak: peak, average: average))
    }
  }

  /// One written subtitle rendition and its segments' rates.
  struct MeasuredSubtitles {
    var track: SubtitleTrack
    var playlist: String
    var peak: Int
    var average: Int

    var rates: HeaviestCombination.Rates { HeaviestCombination.Rates(peak: peak, average: average) }
  }

  let profile: Profile
  let video: [Measured]
  /// Parallel to `profile.audioRenditions`.
  let audio: [Measured]
  let subtitles: [MeasuredSubtitles]
  let iFrameVariants: [MultivariantPlaylist.IFrameVariant]
  let sessionKeys: [KeyTag]

  func playlist() -> MultivariantPlaylist {
    let subtitleGroup = subtitles.isEmpty ? nil : SubtitleTrack.groupID
    var media: [MultivariantPlaylist.Media] = []
    for (rendition, measured) in zip(profile.audioRenditions, audio) {
      media.append(
        .init(
          kind: .audio, groupID: rendition.groupID, name: rendition.name, language: rendition.language,
          isDefault: rendition.isDefault, autoselect: rendition.autoselect, channels: rendition.settings.channels,
          uri: measured.playlist))
    }
    for subtitle in subtitles {
      let track = subtitle.track
      media.append(
        .init(
          kind: .subtitles, groupID: SubtitleTrack.groupID, name: track.name, language: track.language,
          isDefault: track.isDefault, autoselect: track.autoselect, forced: track.forced, uri: subtitle.playlist))
    }

    var variants: [MultivariantPlaylist.Variant] = []
    let groups = audioGroups
    for v in video {
      if groups.isEmpty {
        variants.append(variant(v, plus: nil, subtitles: subtitleGroup))
      } else {
        for group in groups { variants.append(variant(v, plus: group, subtitles: subtitleGroup)) }
      }
    }
    if profile.audioOnlyVariants {
      for group in groups {
        // The default member's playlist: the variant is that rendition of its group, so
        // BANDWIDTH covers the group's heaviest member (`HeaviestCombination`).
        let member = group.members.first { $0.rendition.isDefault } ?? group.members[0]
        let rates = HeaviestCombination.rates(variant: member.measured.combined, groups: [group.combined])
        variants.append(
          .init(
            uri: member.measured.playlist, bandwidth: rates.peak, averageBandwidth: rates.average,
            codecs: group.codecs, width: 0, height: 0, frameRate: 0, audioGroup: group.id))
      }
    }
    var playlist = MultivariantPlaylist(
      variants: variants, iFrameVariants: iFrameVariants, sessionKeys: sessionKeys, independentSegments: true)
    playlist.media = media
    return playlist
  }

  struct AudioGroup {
    var id: String
    var members: [(rendition: AudioRendition, measured: Measured)]
    /// Its members as `HeaviestCombination` counts them.
    var combined: [(playlist: String, rates: HeaviestCombination.Rates)] { members.map(\.measured.combined) }
    var codecs: [String] {
      members.flatMap(\.measured.facts.codecs).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }
  }

  var audioGroups: [AudioGroup] {
    var groups: [AudioGroup] = []
    for (rendition, measured) in zip(profile.audioRenditions, audio) {
      if let i = groups.firstIndex(where: { $0.id == rendition.groupID }) {
        groups[i].members.append((rendition, measured))
      } else {
        groups.append(AudioGroup(id: rendition.groupID, members: [(rendition, measured)]))
      }
    }
    return groups
  }

  /// BANDWIDTH counts every rendition of the largest combination a client
  /// may play (`HeaviestCombination`): the video, the audio group's largest
  /// member and, with a SUBTITLES group, its largest subtitle rendition.
  private func variant(_ v: Measured, plus group: AudioGroup?, subtitles: String?) -> MultivariantPlaylist.Variant {
    let subtitleMembers = subtitles == nil ? [] : self.subtitles.map { ($0.playlist, $0.rates) }
    let rates = HeaviestCombination.rates(variant: v.combined, groups: [group?.combined ?? [], subtitleMembers])
    return .init(
      uri: v.playlist, bandwidth: rates.peak, averageBandwidth: rates.average,
      codecs: v.facts.codecs + (group?.codecs ?? []), width: v.facts.width, height: v.facts.height,
      frameRate: v.facts.frameRate,
      hdcpLevel: profile.encryption.hdcp.level(width: v.facts.width, height: v.facts.height),
      videoRange: v.facts.videoRange, supplementalCodecs: v.facts.supplementalCodecs, audioGroup: group?.id,
      subtitleGroup: subtitles)
  }

  /// The ladder checks of the alternate-renditions issue: a low variant for
  /// offline downloads to start from, and rungs in a sensible order.
  func warnings(_ playlist: MultivariantPlaylist) -> [String] {
    var list: [String] = []
    let lowest = playlist.variants.map(\.bandwidth).min() ?? 0
    if lowest > profile.lowVariantBandwidth {
      list.append(
        "no variant has a BANDWIDTH at or below \(profile.lowVariantBandwidth) bit/s (the lowest is \(lowest)); offline downloads and slow networks start from the lowest variant"
      )
    }
    let rungs = zip(profile.video, video).map {
      (name: $0.name, pixels: $1.facts.width * $1.facts.height, peak: $1.peak)
    }
    for (a, b) in zip(rungs, rungs.dropFirst()) where (a.pixels - b.pixels) * (a.peak - b.peak) < 0 {
      list.append("rungs \(a.name) and \(b.name) look inverted: the one with more pixels has the lower bit rate")
    }
    // A key shared by variants of different levels can be had through the least protected one.
    let levels = Set(playlist.variants.compactMap(\.hdcpLevel))
    if levels.count > 1, profile.encryption.scope == .asset {
      list.append(
        "variants with HDCP-LEVEL \(levels.map(\.rawValue).sorted().joined(separator: " and ")) share one key; Apple's authoring specification wants a key per level: set \"scope\": \"rendition\""
      )
    }
    var groupCodecs: [String: Set<String>] = [:]
    for group in audioGroups {
      groupCodecs[group.id] = Set(group.members.map { "\($0.rendition.name)|\($0.rendition.language)" })
    }
    if Set(groupCodecs.values).count > 1 {
      list.append(
        "audio groups \(groupCodecs.keys.sorted().joined(separator: ", ")) do not have the same members (NAME and LANGUAGE); RFC 8216bis §4.4.6.1.1 wants them to match"
      )
    }
    return list
  }
}
