import Foundation
import HLSPackCore
import HLSPackMedia
import Logging

/// Makes one asset from one input (or the parts of a joined one): transcode
/// and segment every rung, encrypt, write playlists, report and key manifests
/// in a staging folder, then publish.
struct AssetMaker {
  let profile: Profile
  /// The asset's source; a joined asset's first part.
  let input: URL
  /// The asset joined from parts, `input` being its first part's file.
  var joined: JoinedInput?
  let destination: URL
  /// Where the asset's keys are published when they are kept out of it.
  var keysDestination: URL? = nil
  let replace: Bool
  /// Files the run reads (inputs, the profile, sidecars): `--force` never replaces a folder holding one.
  var protecting: [URL] = []
  let progress: ProgressReporter
  let logger: Logger
  /// The cores this run may keep busy; fixed by tests that need a machine other than theirs.
  var usableCores: () -> Int = { UsableCores.count }
  /// The cores the decoder and encoders share (nil: each its own choice from
  /// the machine); set by a batch that makes several assets at once.
  var coreShare: Int?
  /// The record of what makes the asset, when the caller has computed it
  /// already (a batch, to decide whether the asset is up to date).
  var provenance: AssetProvenance?
  /// Same input and profile, same bytes: bit-exact encoders and muxers, and a
  /// report without timings. A seed turns it on too: keys derived from it are
  /// only worth repeating if everything around them repeats.
  var reproducible = false
  /// Check the staged asset as `hlspack verify` does before publishing it;
  /// a must-fix finding refuses publication.
  var verifies = false
  /// The caller's claim on `destination` (`AssetClaim`), held from before it
  /// decided to make the asset; without one the asset is claimed here.
  var claim: FileLock?

  private var isReproducible: Bool { reproducible || profile.encryption.seed != nil }

  var assetName: String { destination.lastPathComponent }

  func encode() throws -> AssetReport {
    let started = Date()
    // Before any work: sources that are regular files, and a destination this run may take.
    let sources = try mediaSources.map { try FileIdentity(path: $0.path) }
    try AssetDestination.check(destination, replace: replace, protecting: protecting)
    let programDateTime = try programDateTimeStart()
    let transcoder = try openParts()
    let wantsAudio = profile.audio != nil || !profile.audioRenditions.isEmpty
    try transcoder.checkAudio(wanted: wantsAudio)
    if wantsAudio, !transcoder.hasAudio {
      logger.warning("\(input.path): has no audio stream; the renditions carry video only")
    }
    for note in transcoder.notes { logger.warning("\(note)") }
    // Sidecar subtitles are read first: a bad file fails before any media work.
    let subtitles = try profile.subtitles.map { try SubtitleRendition.load($0, input: input) }
    let provenance =
      try self.provenance
      ?? AssetProvenance(
        profile: profile, input: input, otherParts: otherParts, reproducible: isReproducible)
    // One run at a time: a second encode of this asset waits, then finds it published.
    let ownClaim = claim == nil ? try AssetClaim.take(destination, waiting: true) : nil
    defer { ownClaim?.release() }
    let staging = try AssetStaging(destination: destination, replace: replace, protecting: protecting)
    defer { staging.discard() }
    let keysStaging = try keysDestination.map { try KeysFolder.stage($0, replace: replace, protecting: protecting) }
    defer { keysStaging?.discard() }
    let notes = [staging, keysStaging].compactMap(\.self).flatMap {
      [$0.removedLeftoversNote, $0.othersFoldersWarning]
    }
    for warning in notes.compactMap(\.self) {
      logger.warning("\(assetName): \(warning)")
    }
    let keysFolder = keysStaging?.folder ?? staging.folder

    let made: (report: AssetReport, seconds: Double)
    do {
      made = try make(
        in: staging.folder, keysIn: keysFolder, from: transcoder, subtitles: subtitles,
        programDateTime: programDateTime, started: started)
      try writeFile(provenance.encoded(), to: staging.folder.appendingPathComponent(AssetProvenance.fileName))
      // Everything has been read: a source that changed meanwhile may have been read in part.
      for source in sources { try source.checkUnchanged() }
      if verifies {
        try StagedVerification.check(
          staged: staging.folder, keysFolder: keysFolder, destination: destination, logger: logger)
      }
      // The keys first, in the same step: an asset is never in place before its keys.
      for warning in try staging.publish(after: keysStaging.map { [$0] } ?? []) {
        logger.warning("\(assetName): \(warning)")
      }
    } catch {
      throw namingTheAsset(error, staging: staging)
    }
    progress.report(
      ProgressEvent(
        event: .done, asset: assetName, input: input.path, seconds: transcoder.duration ?? made.seconds,
        duration: transcoder.duration, elapsed: Date().timeIntervalSince(started),
        master: DisplayPath.of(destination.appendingPathComponent("master.m3u8"))))
    return made.report
  }

  /// Every media file the asset is made from.
  private var mediaSources: [URL] {
    var seen = Set<String>()
    return ([input] + otherParts + profile.video.compactMap(\.source)).filter { seen.insert($0.path).inserted }
  }

  /// A joined asset's parts after the first.
  private var otherParts: [URL] { joined.map { $0.parts.dropFirst().map(\.file) } ?? [] }

  /// Writes the whole asset into `folder` and its keys into `keysFolder`:
  /// its report, and the seconds of source processed.
  private func make(
    in folder: URL, keysIn keysFolder: URL, from transcoder: AssetParts, subtitles: [SubtitleRendition],
    programDateTime: ProgramDateTime?, started: Date
  ) throws -> (report: AssetReport, seconds: Double) {
    let encryption = profile.encryption
    // Decided here once for every rendition; the writers and muxers follow it.
    let protection = SegmentProtection(profile)
    let keys = protection.encrypts ? KeyRing(settings: encryption, asset: assetName, folder: keysFolder) : nil
    // Video renditions, then alternate audio renditions (under audio/), as the producer expects.
    let names = profile.video.map(\.name) + profile.audioRenditions.map { "audio/\($0.id)" }
    // Video renditions only: alternate audio is light, and muxed beside the video.
    let videoLanes = SegmentWriterLanes.count(
      encryptsWholeSegments: protection == .aes128Segments, copies: profile.copiesVideo,
      renditions: profile.video.count,
      cores: usableCores())
    var writers: [RenditionWriter] = []
    var lastReport = Date.distantPast
    var processed = 0.0
    let facts: [WrittenStreamFacts]
    do {
      for (index, name) in names.enumerated() {
        writers.append(
          try RenditionWriter(
            name: name, asset: assetName, assetFolder: folder, container: profile.segment.container,
            protection: protection, encryption: encryption, keys: keys, checksums: profile.segment.checksums,
            singleFile: profile.segment.singleFile, writerLanes: index < profile.video.count ? videoLanes : 1))
      }
      progress.report(ProgressEvent(event: .start, asset: assetName, input: input.path, duration: transcoder.duration))
      facts = try transcoder.run(writers: writers) { seconds in
        processed = seconds
        let now = Date()
        // Nothing done yet has no speed: every progress event carries one.
        guard seconds > 0, now.timeIntervalSince(lastReport) >= 0.5 else { return }
        lastReport = now
        progress.report(
          ProgressEvent(
            event: .progress, asset: assetName, input: input.path, seconds: seconds, duration: transcoder.duration,
            elapsed: now.timeIntervalSince(started)))
      }
    } catch {
      // Stop the writer threads made so far; the first error is the one to report.
      _ = try? writers.mapAll { try $0.close() }
      throw error
    }
    // Every writer is closed, so that no writing thread outlives a failed one.
    _ = try writers.mapAll { try $0.close() }
    transcoder.joinTimelines(writers)

    var outputs = AssetOutputs(
      profile: profile, protection: protection, input: input, assetName: assetName, folder: folder,
      keysFolder: keysFolder, keysDestination: keysDestination ?? destination, programDateTime: programDateTime)
    outputs.joined = joined != nil
    // A reproducible run's report carries no timings.
    let timed = isReproducible ? nil : started
    let (report, warnings) = try outputs.write(writers: writers, facts: facts, subtitles: subtitles, started: timed)
    for warning in warnings { logger.warning("\(assetName): \(warning)") }
    if encryption.seed != nil, let warning = SeedDerivation.sharedKeysWarning(replacing: destination, with: report) {
      logger.warning("\(assetName): \(warning)")
    }
    return (report, processed)
  }

  /// A file of the staging folder, which is removed on failure, means
  /// nothing to the user (a full disk named a hidden file that was gone):
  /// such an error names the asset's folder, the file in it, and the input.
  private func namingTheAsset(_ error: Error, staging: AssetStaging) -> Error {
    guard case .output(let path, let reason)? = error as? PackError else { return error }
    let staged = Array((staging.folder.path + "/").utf8)
    guard Array(path.utf8).starts(with: staged) else { return error }
    let file = String(decoding: Array(path.utf8).dropFirst(staged.count), as: UTF8.self)
    return PackError.output(
      path: destination.path, reason: "\(file): \(reason), while encoding \(input.path); nothing was published")
  }

  /// The wall-clock time of the first frame, when the profile asks for
  /// EXT-X-PROGRAM-DATE-TIME; read from the input for `"source"`.
  private func programDateTimeStart() throws -> ProgramDateTime? {
    switch profile.segment.programDateTime {
    case nil: return nil
    case .fixed(let start): return start
    case .source:
      let field = "segment.program_date_time \"source\""
      guard let text = try SourceCreationTime.read(path: input.path) else {
        throw PackError.input(
          path: input.path,
          reason:
            "has no creation time (no creation_time tag), which \(field) takes: give an ISO 8601 date-time instead")
      }
      guard let start = ProgramDateTime(iso8601: text) else {
        throw PackError.input(
          path: input.path,
          reason: "its creation_time \"\(text)\" is not an ISO 8601 date-time, which \(field) takes: give one instead")
      }
      return start
    }
  }

  /// Every source opened and checked, before any work.
  private func openParts() throws -> AssetParts {
    let sources = joined?.parts.map { (file: $0.file, clear: $0.clear, field: Optional($0.field)) } ?? [
      (file: input, clear: false, field: nil)
    ]
    return try AssetParts(asset: assetName, sources: sources, copies: profile.copiesVideo, open: producer(for:))
  }

  /// Transcoding, or packaging as-is when every rung copies its source.
  private func producer(for input: URL) throws -> RenditionProducer {
    let output = RenditionOutput(
      container: profile.segment.container, segmentDuration: profile.segment.duration, reproducible: isReproducible)
    if profile.copiesVideo {
      return try CopyProducer(
        renditions: profile.video.map { .init(name: $0.name, source: ($0.source ?? input).path) },
        copyAudio: profile.audio != nil, output: output)
    }
    var job = LadderJob(rungs: profile.video, audio: profile.audio, output: output)
    job.audioRenditions = profile.audioRenditions
    job.coreShare = coreShare
    job.labels = profile.labels
    return try LadderTranscoder(path: input.path, job: job)
  }
}
