import Foundation
import HLSPackCore
import HLSPackPackage

/// Writes what an asset says about its segments: media and master playlists,
/// report.json, keys.json and (on request) FFmpeg key-info files. Built from
/// segment records only; media bytes are never read again.
struct AssetOutputs {
  let profile: Profile
  /// The asset's protection, as decided for its renditions.
  let protection: SegmentProtection
  let input: URL
  let assetName: String
  let folder: URL
  /// Where key files, keys.json and key-info files are written: `folder`, or
  /// the staging folder of the asset's keys folder when they are kept out of the asset.
  let keysFolder: URL
  /// Where `keysFolder` will be published (key-info files name key paths there).
  let keysDestination: URL
  /// The wall-clock time of the first video frame, resolved from
  /// `segment.program_date_time`; nil writes no EXT-X-PROGRAM-DATE-TIME.
  var programDateTime: ProgramDateTime? = nil
  /// An asset joined from parts: its playlists state EXT-X-DISCONTINUITY-SEQUENCE.
  var joined = false

  /// EXT-X-DISCONTINUITY-SEQUENCE of every media and I-frame playlist: 0, as
  /// every discontinuity of a VOD playlist is in it (RFC 8216bis §4.4.3.3);
  /// left out, as it may be, for an asset of one source.
  private var discontinuitySequence: Int? { joined ? 0 : nil }

  /// Writes everything; `writers` and `facts` hold the video renditions, then
  /// the alternate audio renditions in profile order.
  func write(
    writers: [RenditionWriter], facts: [WrittenStreamFacts], subtitles: [SubtitleRendition], started: Date?
  ) throws -> (report: AssetReport, warnings: [String]) {
    for writer in writers where writer.records.isEmpty {
      throw PackError.media(path: input.path, reason: "rung \(writer.name) produced no segment")
    }
    // One target duration for the whole presentation (RFC 8216bis §6.2.4).
    let longest = writers.flatMap(\.records).map(\.durationTicks).max() ?? 0
    let targetDuration = MediaPlaylist.targetDuration(forLongest: longest)

    var measured: [MultivariantPlan.Measured] = []
    var iFrameVariants: [MultivariantPlaylist.IFrameVariant] = []
    var renditions: [AssetReport.Rendition] = []
    let clock = programDateTime.flatMap { start in
      writers.first?.records.first.map { WallClock(start: start, originTicks: $0.startTicks) }
    }
    for (writer, fact) in zip(writers, facts) {
      let written = try writeMediaPlaylists(writer, fact: fact, targetDuration: targetDuration, clock: clock)
      measured.append(written.measured)
      iFrameVariants += written.iFrameVariant.map { [$0] } ?? []
      renditions.append(written.report)
    }
    let sessionKeys = sessionKeys(writers)
    let videoCount = profile.video.count
    // fMP4's edit lists show the first picture at 0; MPEG-TS shows its timestamps.
    let presentationShift = profile.segment.container == .fmp4 ? MediaClock.timelineOffset : 0
    let subtitleReports = try subtitles.map {
      try $0.write(
        into: folder, segments: writers[0].records, presentationShift: presentationShift,
        targetDuration: targetDuration,
        checksums: profile.segment.checksums, clock: clock)
    }
    let plan = MultivariantPlan(
      profile: profile, video: Array(measured.prefix(videoCount)), audio: Array(measured.dropFirst(videoCount)),
      subtitles: zip(subtitles, subtitleReports).map {
        measure($0.track, $1, video: writers[0], targetDuration: targetDuration)
      },
      iFrameVariants: iFrameVariants, sessionKeys: sessionKeys.map(\.tag))
    let master = plan.playlist()
    try write(master.render(), to: "master.m3u8")

    let manifest = keysManifest(writers, sessionKeys: sessionKeys)
    if !manifest.keys.isEmpty {
      try writeFile(
        KeysManifestFile.encode(manifest), to: keysFolder.appendingPathComponent(KeysManifestFile.name),
        mode: profile.encryption.exportKeys ? 0o600 : 0o644)
      if profile.encryption.writeKeyInfo { try writeKeyInfo(writers) }
    }

    let report = AssetReport(
      version: HLSPackVersion.current, input: input.path, asset: assetName,
      container: profile.segment.container.rawValue, encryption: protection.method.rawValue,
      ivMode: manifest.keys.isEmpty ? nil : ivModeName, targetDuration: targetDuration,
      keys: manifest.keys.map { AssetReport.Key(keyID: $0.keyID, uri: $0.uri, file: $0.keyFile) },
      renditions: renditions, subtitles: subtitleReports.isEmpty ? nil : subtitleReports,
      timings: started.map { timings(started: $0, writers: writers) })
    try writeJSON(report, to: folder.appendingPathComponent("report.json"), privateFile: false)
    var warnings = plan.warnings(master)
    if protection.encrypts, manifest.keys.isEmpty {
      let segments = writers.map(\.records.count).max() ?? 0
      warnings.append(
        "clear_lead_segments is \(profile.encryption.clearLeadSegments) but the asset has \(segments) segments: nothing was encrypted and no key was written"
      )
    }
    warnings += shortAudioWarnings(writers, facts: facts)
    return (report, warnings)
  }

  /// Writes one rendition's media and I-frame playlists; what the multivariant
  /// playlist and the report say of it, measured from what was written.
  private func writeMediaPlaylists(
    _ writer: RenditionWriter, fact: WrittenStreamFacts, targetDuration: Int64, clock: WallClock?
  ) throws
    -> (
      measured: MultivariantPlan.Measured, iFrameVariant: MultivariantPlaylist.IFrameVariant?,
      report: AssetReport.Rendition
    )
  {
    let playlist = MediaPlaylist(
      entries: writer.records.enumerated().map { index, record in
        .init(
          uri: record.uri, durationTicks: record.durationTicks, key: record.key, discontinuity: record.discontinuity,
          programDateTime: clock?.time(at: record.startTicks, first: index == 0, discontinuity: record.discontinuity),
          byteRange: record.byteRange, map: record.map)
      },
      targetDuration: targetDuration, map: writer.initialization, mapRange: writer.initializationRange,
      mapKey: writer.initializationRecord?.key ?? .none, discontinuitySequence: discontinuitySequence)
    let playlistPath = "\(writer.name)/index.m3u8"
    try write(playlist.render(), to: playlistPath)

    let samples = writer.records.map { BandwidthMeter.Sample(bytes: $0.byteCount, durationTicks: $0.durationTicks) }
    let variant = MultivariantPlan.Measured(
      playlist: playlistPath, facts: fact, peak: BandwidthMeter.peak(samples, targetDuration: targetDuration),
      average: BandwidthMeter.average(samples))
    var iFrameVariant: MultivariantPlaylist.IFrameVariant?
    if profile.segment.iFramePlaylists,
      let iFrames = iFramePlaylist(writer, targetDuration: targetDuration, clock: clock),
      !iFrames.entries.isEmpty
    {
      let path = "\(writer.name)/iframes.m3u8"
      try write(iFrames.render(), to: path)
      let samples = iFrames.entries.map { BandwidthMeter.Sample(bytes: $0.length, durationTicks: $0.durationTicks) }
      iFrameVariant = MultivariantPlaylist.IFrameVariant(
        uri: path, bandwidth: BandwidthMeter.peak(samples, targetDuration: iFrames.targetDuration),
        averageBandwidth: BandwidthMeter.average(samples), codecs: Array(fact.codecs.prefix(1)),
        width: fact.width, height: fact.height,
        hdcpLevel: profile.encryption.hdcp.level(width: fact.width, height: fact.height), videoRange: fact.videoRange,
        supplementalCodecs: fact.supplementalCodecs)
    }
    let report = AssetReport.Rendition(
      name: writer.name, playlist: playlistPath, bandwidth: variant.peak,
      averageBandwidth: variant.average, codecs: fact.codecs.joined(separator: ","),
      resolution: fact.width > 0 ? "\(fact.width)x\(fact.height)" : "",
      frameRate: (fact.frameRate * 1000).rounded() / 1000,
      videoFrames: fact.videoFrames,
      segments: writer.records.map {
        AssetReport.Segment(
          uri: "\(writer.name)/\($0.uri)", duration: MediaClock.seconds($0.durationTicks), bytes: $0.byteCount,
          sha256: $0.sha256, iv: $0.key.iv.map(KeyTag.formatIV), keyID: $0.keyID, byteRange: $0.byteRange?.text)
      })
    return (variant, iFrameVariant, report)
  }

  /// A subtitle rendition's rates: each segment lasts as long as the video segment it was cut at.
  private func measure(
    _ track: SubtitleTrack, _ report: AssetReport.Subtitles, video: RenditionWriter, targetDuration: Int64
  ) -> MultivariantPlan.MeasuredSubtitles {
    let samples = zip(report.segments, video.records).map {
      BandwidthMeter.Sample(bytes: $0.bytes, durationTicks: $1.durationTicks)
    }
    return MultivariantPlan.MeasuredSubtitles(
      track: track, playlist: report.playlist, peak: BandwidthMeter.peak(samples, targetDuration: targetDuration),
      average: BandwidthMeter.average(samples))
  }

  /// Every playlist of a presentation should cover the same time
  /// (RFC 8216bis §6.2.4): an audio rendition that ends a segment or more before the video
  /// comes from a source whose audio is shorter, and a player may stall or
  /// go silent when it runs out.
  private func shortAudioWarnings(_ writers: [RenditionWriter], facts: [WrittenStreamFacts]) -> [String] {
    let lengths = zip(writers, facts).map { writer, fact in
      (name: writer.name, video: fact.width > 0, ticks: writer.records.reduce(0) { $0 + $1.durationTicks })
    }
    guard let video = lengths.filter(\.video).map(\.ticks).max() else { return [] }
    let slack = Int64(profile.segment.duration * Double(MediaClock.ticksPerSecond))
    return lengths.filter { !$0.video && video - $0.ticks >= slack }.map {
      String(
        format:
          "audio rendition %@ lasts %.3f s, the video %.3f s (the source's audio is shorter); players may go silent or stall where it ends",
        $0.name, MediaClock.seconds($0.ticks), MediaClock.seconds(video))
    }
  }

  /// EXT-X-SESSION-KEY on request: one per distinct key tag, without IVs
  /// (they differ per segment), so clients can fetch keys early (RFC 8216bis §4.4.6.5).
  /// A relative key URI is written for the media playlist's folder; the master
  /// sits at the root and must name the same key (RFC 8216bis §4.4.6.5), so `../keys/k.key`
  /// from `720p/` and `../../keys/k.key` from `audio/en/` become one `keys/k.key`.
  private func sessionKeys(_ writers: [RenditionWriter]) -> [SessionKey] {
    guard profile.encryption.sessionKey else { return [] }
    var keys: [SessionKey] = []
    for writer in writers {
      for record in writer.keyedRecords where record.key.method != .none {
        var tag = record.key
        tag.iv = nil
        tag.uri = tag.uri.map { URIReference.fromPackageRoot($0, writtenIn: writer.name) }
        if !keys.contains(where: { $0.tag == tag }) {
          keys.append(SessionKey(tag: tag, keyID: record.keyID, keyFile: record.keyFile))
        }
      }
    }
    return keys
  }

  private struct SessionKey {
    var tag: KeyTag
    var keyID: String?
    var keyFile: String?
  }

  /// One entry per keyframe range; each lasts until the next keyframe.
  private func iFramePlaylist(_ writer: RenditionWriter, targetDuration: Int64, clock: WallClock?) -> IFramePlaylist? {
    var entries: [IFramePlaylist.Entry] = []
    var ends: [Int64] = []
    // A segment's discontinuity and EXT-X-MAP go before its first I-frame (a segment without one passes them on).
    var discontinuity = false
    var map: String?
    for record in writer.records {
      var key = record.key
      // Explicit IVs, except with FairPlay, which delivers the IV with the key (Apple HLS Authoring Spec 13.1–13.4).
      if key.method != .none, !profile.encryption.fairPlay { key.iv = record.iv }
      discontinuity = discontinuity || record.discontinuity
      map = record.map ?? map
      for range in record.keyframes {
        entries.append(
          .init(
            uri: record.uri, offset: (record.byteOffset ?? 0) + range.offset, length: range.length, durationTicks: 0,
            key: key,
            discontinuity: discontinuity,
            programDateTime: clock?.time(at: range.ptsTicks, first: entries.isEmpty, discontinuity: discontinuity),
            map: map))
        ends.append(range.ptsTicks)
        discontinuity = false
        map = nil
      }
    }
    guard let last = writer.records.last else { return nil }
    ends.append(last.startTicks + last.durationTicks)
    for i in entries.indices { entries[i].durationTicks = ends[i + 1] - ends[i] }
    return IFramePlaylist(
      entries: entries, map: writer.initialization, targetDuration: targetDuration,
      mapRange: writer.initializationRange, mapKey: writer.initializationRecord?.key ?? .none,
      discontinuitySequence: discontinuitySequence)
  }

  private var ivModeName: String {
    switch profile.encryption.iv {
    case .random: "random"
    case .sequence: "sequence"
    case .fixed: "fixed"
    }
  }

  /// One entry per key URI, in the order the segments first use them, then
  /// the session keys' URIs that no segment uses, as `rewrite-keys` lists
  /// them: it finds a key by the URI a playlist writes.
  private func keysManifest(_ writers: [RenditionWriter], sessionKeys: [SessionKey]) -> KeysManifest {
    var entries: [KeysManifest.Key] = []
    var index: [String: Int] = [:]
    func entry(_ tag: KeyTag, _ keyID: String?, _ keyFile: String?) -> Int? {
      guard let uri = tag.uri, let keyID, let keyFile else { return nil }
      let name = "\(uri)\n\(keyID)"
      if let known = index[name] { return known }
      index[name] = entries.count
      let exported = profile.encryption.exportKeys ? keyHex(keyFile) : nil
      entries.append(
        .init(uri: uri, keyID: keyID, keyFile: keyFile, renditions: [], periods: [], segments: [], key: exported))
      return entries.count - 1
    }
    for writer in writers {
      for record in writer.keyedRecords {
        guard let i = entry(record.key, record.keyID, record.keyFile) else { continue }
        if !entries[i].renditions.contains(writer.name) { entries[i].renditions.append(writer.name) }
        if !entries[i].periods.contains(record.period) { entries[i].periods.append(record.period) }
        entries[i].segments.append(
          .init(
            uri: "\(writer.name)/\(record.uri)", iv: record.iv.map(KeyTag.formatIV),
            byteRange: record.byteRange?.text))
      }
    }
    for key in sessionKeys { _ = entry(key.tag, key.keyID, key.keyFile) }
    return KeysManifest(keys: entries)
  }

  private func keyHex(_ keyFile: String) -> String? {
    FileManager.default.contents(atPath: keysFolder.appendingPathComponent(keyFile).path).map { Hex.encode(Array($0)) }
  }

  /// `keys/<rendition>.<period>.keyinfo`: URI, the published key file's path, and the IV when it is fixed.
  private func writeKeyInfo(_ writers: [RenditionWriter]) throws {
    for writer in writers {
      var seen = Set<Int>()
      // Clear-lead segments carry no key: they must not use up their period's file.
      for record in writer.keyedRecords {
        guard let uri = record.key.uri, let keyFile = record.keyFile, seen.insert(record.period).inserted else {
          continue
        }
        var fixedIV: [UInt8]?
        if case .fixed(let iv) = profile.encryption.iv { fixedIV = iv }
        let info = FFmpegKeyInfo(uri: uri, keyPath: keysDestination.appendingPathComponent(keyFile).path, iv: fixedIV)
        let name = "keys/\(writer.name.replacingOccurrences(of: "/", with: "-")).\(record.period).keyinfo"
        try writeFile(Array(info.text.utf8), to: keysFolder.appendingPathComponent(name))
      }
    }
  }

  private func timings(started: Date, writers: [RenditionWriter]) -> AssetReport.Timings {
    let sourceSeconds = MediaClock.seconds(writers.first?.records.reduce(0) { $0 + $1.durationTicks } ?? 0)
    let wall = Date().timeIntervalSince(started)
    return AssetReport.Timings(
      sourceSeconds: (sourceSeconds * 1000).rounded() / 1000, wallSeconds: (wall * 1000).rounded() / 1000,
      speed: wall > 0 ? (sourceSeconds / wall * 100).rounded() / 100 : 0)
  }

  private func writeJSON<T: Encodable>(_ value: T, to url: URL, privateFile: Bool) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(value) + Data("\n".utf8)
    try writeFile(data, to: url, mode: privateFile ? 0o600 : 0o644)
  }

  private func write(_ text: String, to path: String) throws {
    try writeFile(Array(text.utf8), to: folder.appendingPathComponent(path))
  }
}
