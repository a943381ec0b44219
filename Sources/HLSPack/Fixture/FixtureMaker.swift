import Foundation
import HLSPackCore
import HLSPackPackage
import HLSPackMedia
import Logging

/// Makes the fixture matrix: a labelled source, then each fixture as its own
/// package from its generated profile by the normal pipeline (`Packager`),
/// then fixtures.json and index.html. Everything is made in a staging folder
/// beside the output and moved into place only when complete.
public struct FixtureMaker {
  public let request: FixtureRequest
  public let logger: Logger
  /// Called with each fixture's id as it starts.
  public var started: (String) -> Void = { _ in }
  /// Called when the labelled source, then each fixture, is made: what it
  /// made ("source", or the fixture's id) and the wall-clock seconds it took.
  public var finished: (String, Double) -> Void = { _, _ in }

  public init(request: FixtureRequest, logger: Logger) {
    self.request = request
    self.logger = logger
  }

  static let sourceName = "labelled"
  static let audioTracks = [
    LabelledSourceSpec.AudioTrack(language: "eng", toneHertz: 440),
    LabelledSourceSpec.AudioTrack(language: "fra", toneHertz: 660),
  ]

  public func make() throws -> FixtureDatabase {
    try request.validate()
    let output = request.output.standardizedFileURL
    let staging = output.deletingLastPathComponent()
      .appendingPathComponent(".\(output.lastPathComponent).staging-\(getpid())")
    do {
      // Registered, an interrupt (SIGINT, SIGTERM) removes it; the move into
      // place and the unregistering happen together, so an interrupt sees the
      // staging folder or the published DIR, never both.
      try StagingRegistry.shared.register(staging)
      try? FileManager.default.removeItem(at: staging)
      try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
      let database = try build(in: staging)
      try StagingRegistry.shared.unlessInterrupted(at: output.path) { registered in
        if FileManager.default.fileExists(atPath: output.path) { try FileManager.default.removeItem(at: output) }
        try FileManager.default.moveItem(at: staging, to: output)
        registered.remove(staging)
      }
      return database
    } catch let error as FixtureRequestError {
      discard(staging)
      throw error
    } catch {
      discard(staging)
      throw FixtureRequestError("\(error)", usage: false)
    }
  }

  private func discard(_ staging: URL) {
    try? FileManager.default.removeItem(at: staging)
    StagingRegistry.shared.unregister(staging)
  }

  private func build(in staging: URL) throws -> FixtureDatabase {
    let rate = FrameRate(numerator: FixtureRequest.fps, denominator: 1)
    let sync =
      request.source == nil ? SyncPattern(seed: request.seed, frameCount: request.frameCount, rate: rate) : nil
    let profiles = staging.appendingPathComponent("profiles")
    try FileManager.default.createDirectory(at: profiles, withIntermediateDirectories: true)
    let sourceFolder = staging.appendingPathComponent(".source")
    try FileManager.default.createDirectory(at: sourceFolder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: sourceFolder) }
    let sourceClock = Date()
    let source = try makeSource(in: sourceFolder, rate: rate, sync: sync)
    finished("source", Date().timeIntervalSince(sourceClock))
    try Data(MediaTimeCues.webVTT(seconds: request.duration).utf8)
      .write(to: profiles.appendingPathComponent(FixtureProfile.subtitlesFile))

    var fixtures: [FixtureDatabase.Fixture] = []
    for fixture in request.fixtures {
      started(fixture.id)
      let clock = Date()
      fixtures.append(try package(fixture, source: source, profiles: profiles, staging: staging))
      finished(fixture.id, Date().timeIntervalSince(clock))
    }
    if request.keepSource, request.source == nil {
      let kept = staging.appendingPathComponent("source")
      try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
      try FileManager.default.moveItem(at: source, to: kept.appendingPathComponent(source.lastPathComponent))
    }
    let database = FixtureDatabase(
      fps: FixtureRequest.fps, duration: request.duration, seed: request.seed, syncEvents: sync?.seconds ?? [],
      fixtures: fixtures)
    try database.write(to: staging.appendingPathComponent("fixtures.json"))
    try Data(FixtureCatalogue.html(database).utf8).write(to: staging.appendingPathComponent("index.html"))
    return database
  }

  /// The footage every fixture is made from: the user's, or a labelled one synthesised here.
  private func makeSource(in folder: URL, rate: FrameRate, sync: SyncPattern?) throws -> URL {
    if let source = request.source {
      // Named after the synthesised source, so that every master has the same path.
      let link = folder.appendingPathComponent("\(Self.sourceName).\(source.pathExtension)")
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: source.standardizedFileURL)
      return link
    }
    let path = folder.appendingPathComponent("\(Self.sourceName).mkv")
    try LabelledSource.write(
      LabelledSourceSpec(
        width: 1280, height: 720, rate: rate, frameCount: request.frameCount, syncFrames: sync?.frames ?? [],
        audioTracks: Self.audioTracks),
      to: path.path)
    return path
  }

  /// One fixture, packaged by the normal pipeline from its generated profile.
  private func package(_ fixture: FixtureCase, source: URL, profiles: URL, staging: URL) throws
    -> FixtureDatabase.Fixture
  {
    let profileFile = profiles.appendingPathComponent("\(fixture.id).json")
    try FixtureProfile.json(
      for: fixture, seed: request.seed, singleAudioTrack: request.source != nil, sourceFile: source.lastPathComponent
    )
    .write(to: profileFile)
    let profile: Profile
    do {
      profile = try ProfileLoader.load(contentsOf: profileFile)
    } catch {
      throw FixtureRequestError("fixture \(fixture.id): its generated profile is invalid: \(error)", usage: false)
    }
    var packager = Packager(
      profile: profile, output: staging.appendingPathComponent(fixture.id), replace: false,
      progress: SilentProgress(), logger: logger)
    packager.reproducible = true
    // A case joined from parts takes every part from this run's source.
    let joined = profile.joinedInputs.map { input in
      JoinedInput(
        asset: input.asset, parts: input.parts.map { JoinedInput.Part(file: source, clear: $0.clear, field: $0.field) })
    }
    for outcome in try packager.run(inputs: joined.isEmpty ? [source] : [], joined: joined) {
      if let error = outcome.error { throw FixtureRequestError("fixture \(fixture.id): \(error)", usage: false) }
    }
    let asset = "\(fixture.id)/\(Self.sourceName)"
    return FixtureDatabase.Fixture(
      id: fixture.id, description: fixture.description, master: "\(asset)/master.m3u8", method: fixture.method,
      container: fixture.container, videoCodec: fixture.videoCodec, features: fixture.features.map(\.rawValue),
      keys: try keys(staging.appendingPathComponent("\(asset)/\(KeysManifestFile.name)"), asset: asset),
      frames: request.source == nil ? request.frameCount * max(1, fixture.parts.count) : nil,
      scenario: fixture.scenario.map { "Profiles/scenarios/\($0)" }, profile: "profiles/\(fixture.id).json")
  }

  /// The package's exported keys (keys.json), named so that `hlspack verify
  /// --key NAME=HEX` and a test server can use them as they are: a URI with a
  /// scheme (`skd://`, `hlspack-test://`) exactly as EXT-X-KEY writes it, since
  /// only the app or key server resolves it; a key file under its path
  /// relative to DIR, once, whatever relative URI each playlist writes for it.
  private func keys(_ file: URL, asset: String) throws -> [String: String] {
    guard FileManager.default.fileExists(atPath: file.path) else { return [:] }
    let manifest = try KeysManifestFile.read(at: file)
    var keys: [String: String] = [:]
    for key in manifest.keys {
      guard let hex = key.key else { continue }
      keys[URIReference.scheme(of: key.uri) == nil ? "\(asset)/\(key.keyFile)" : key.uri] = hex
    }
    return keys
  }
}
