import Foundation
import HLSPackCore
import HLSPackCrypto
import HLSPackMedia
import Logging

/// Makes one asset from one input: transcode and segment every rung, encrypt,
/// write playlists and the report in a staging folder, then publish it.
struct AssetEncoder {
  let profile: Profile
  let input: URL
  let destination: URL
  let replace: Bool
  let progress: ProgressReporter
  let logger: Logger

  var assetName: String { destination.lastPathComponent }

  func encode() throws -> AssetReport {
    let started = Date()
    let transcoder = try LadderTranscoder(path: input.path)
    if profile.audio != nil, !transcoder.hasAudio {
      logger.warning("\(input.path): has no audio stream; the renditions carry video only")
    }
    let staging = try AssetStaging(destination: destination, replace: replace)
    defer { staging.discard() }

    let key = try profile.encryption.method == .none
      ? nil : AssetKey.generate(settings: profile.encryption, assetFolder: staging.folder)
    let writers = try profile.video.map {
      try RenditionWriter(name: $0.name, assetFolder: staging.folder, key: key, ivMode: profile.encryption.iv)
    }
    progress.report(ProgressEvent(event: .start, asset: assetName, input: input.path, duration: transcoder.duration))
    var lastReport = Date.distantPast
    let facts = try transcoder.run(
      LadderJob(rungs: profile.video, audio: profile.audio, segmentDuration: profile.segment.duration),
      sinks: writers
    ) { seconds in
      let now = Date()
      guard now.timeIntervalSince(lastReport) >= 0.5 else { return }
      lastReport = now
      progress.report(
        ProgressEvent(
          event: .progress, asset: assetName, input: input.path, seconds: seconds, duration: transcoder.duration,
          elapsed: now.timeIntervalSince(started)))
    }

    let report = try writePlaylists(writers: writers, facts: facts, key: key, folder: staging.folder, started: started)
    try staging.publish()
    progress.report(
      ProgressEvent(
        event: .done, asset: assetName, input: input.path, seconds: report.timings?.sourceSeconds ?? 0,
        duration: transcoder.duration, elapsed: Date().timeIntervalSince(started)))
    return report
  }

  private func writePlaylists(
    writers: [RenditionWriter], facts: [WrittenStreamFacts], key: AssetKey?, folder: URL, started: Date
  ) throws -> AssetReport {
    for writer in writers where writer.records.isEmpty {
      throw PackError.media(path: input.path, reason: "rung \(writer.name) produced no segment")
    }
    // One target duration for the whole presentation (conformance B3).
    let longest = writers.flatMap(\.records).map(\.durationTicks).max() ?? 0
    let targetDuration = MediaPlaylist.targetDuration(forLongest: longest)

    var variants: [MultivariantPlaylist.Variant] = []
    var renditions: [AssetReport.Rendition] = []
    for (writer, fact) in zip(writers, facts) {
      let playlist = MediaPlaylist(
        entries: writer.records.map { .init(uri: $0.uri, durationTicks: $0.durationTicks, key: $0.key) },
        targetDuration: targetDuration)
      let playlistPath = "\(writer.name)/index.m3u8"
      try write(playlist.render(), to: folder.appendingPathComponent(playlistPath))

      let samples = writer.records.map { BandwidthMeter.Sample(bytes: $0.byteCount, durationTicks: $0.durationTicks) }
      let variant = MultivariantPlaylist.Variant(
        uri: playlistPath,
        bandwidth: BandwidthMeter.peak(samples, targetDuration: targetDuration),
        averageBandwidth: BandwidthMeter.average(samples),
        codecs: fact.codecs, width: fact.width, height: fact.height, frameRate: fact.frameRate)
      variants.append(variant)
      renditions.append(
        AssetReport.Rendition(
          name: writer.name, playlist: playlistPath, bandwidth: variant.bandwidth,
          averageBandwidth: variant.averageBandwidth, codecs: fact.codecs.joined(separator: ","),
          resolution: "\(fact.width)x\(fact.height)", frameRate: (fact.frameRate * 1000).rounded() / 1000,
          videoFrames: fact.videoFrames,
          segments: writer.records.map {
            AssetReport.Segment(
              uri: "\(writer.name)/\($0.uri)", duration: MediaClock.seconds($0.durationTicks), bytes: $0.byteCount,
              sha256: $0.sha256, iv: $0.key.iv.map(KeyTag.formatIV), keyID: $0.keyID)
          }))
    }
    let master = MultivariantPlaylist(variants: variants, independentSegments: true)
    try write(master.render(), to: folder.appendingPathComponent("master.m3u8"))

    let sourceSeconds = MediaClock.seconds(writers[0].records.reduce(0) { $0 + $1.durationTicks })
    let wall = Date().timeIntervalSince(started)
    let report = AssetReport(
      version: HLSPackVersion.current, input: input.path, asset: assetName,
      container: profile.segment.container.rawValue, encryption: profile.encryption.method.rawValue,
      ivMode: key == nil ? nil : profile.encryption.iv.rawValue, targetDuration: targetDuration,
      keys: key.map { [AssetReport.Key(keyID: $0.key.idHex, uri: $0.uri, file: $0.file)] } ?? [],
      renditions: renditions,
      timings: AssetReport.Timings(
        sourceSeconds: (sourceSeconds * 1000).rounded() / 1000, wallSeconds: (wall * 1000).rounded() / 1000,
        speed: wall > 0 ? (sourceSeconds / wall * 100).rounded() / 100 : 0))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    try write(String(decoding: try encoder.encode(report), as: UTF8.self) + "\n", to: folder.appendingPathComponent("report.json"))
    return report
  }

  private func write(_ text: String, to url: URL) throws {
    do {
      try Data(text.utf8).write(to: url)
    } catch {
      throw PackError.output(path: url.path, reason: "cannot write (\(error.localizedDescription))")
    }
  }
}
