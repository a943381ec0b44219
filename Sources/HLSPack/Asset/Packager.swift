import Foundation
import HLSPackCore
import HLSPackMedia
import Logging

/// The `encode` job over every input of a profile. A failing input does not
/// stop the others; each outcome says what happened.
public struct Packager {
  public struct Outcome: Sendable {
    public var input: URL
    public var destination: URL
    public var report: AssetReport?
    public var error: PackError?
  }

  public let profile: Profile
  public let output: URL
  public let replace: Bool
  /// Files the run reads besides the inputs and what the profile names (the
  /// profile itself): `--force` never replaces a folder holding one.
  public let protecting: [URL]
  public let progress: ProgressReporter
  public let logger: Logger
  /// Bit-exact packages and reports without timings (a seed turns it on as well).
  public var reproducible = false
  /// `encode --verify`: each asset is verified before it is published (`AssetMaker.verifies`).
  public var verifies = false

  public init(
    profile: Profile, output: URL, replace: Bool, protecting: [URL] = [], progress: ProgressReporter, logger: Logger
  ) {
    self.profile = profile
    self.output = output
    self.replace = replace
    self.protecting = protecting
    self.progress = progress
    self.logger = logger
  }

  /// Each input's asset folder: OUTPUT/<input file stem>. Two inputs that would
  /// share a folder are refused before any work starts.
  public static func destinations(for inputs: [URL], output: URL) throws -> [URL] {
    // By bytes: Swift's == takes the NFC and NFD spellings of "café" as one
    // name, but they are two folders on Linux.
    var seen: [[UInt8]: URL] = [:]
    return try inputs.map { input in
      let stem = input.deletingPathExtension().lastPathComponent
      guard !stem.isEmpty, !stem.hasPrefix(".") else {
        throw PackError.input(
          path: input.path, reason: "cannot name an asset after this file (the folder would be hidden)")
      }
      let name = Array(stem.utf8)
      if let other = seen[name] {
        throw PackError.input(
          path: input.path, reason: "would write the same asset folder \"\(stem)\" as \(other.path)")
      }
      seen[name] = input
      return output.appendingPathComponent(stem)
    }
  }

  /// Every file the run reads: inputs, rung sources, sidecar subtitles, key files and `protecting`.
  private func filesRead(inputs: [URL], joined: [JoinedInput]) -> [URL] {
    let subtitles = inputs.flatMap { input in
      profile.subtitles.map { URL(fileURLWithPath: SubtitleRendition.file(of: $0, for: input), isDirectory: false) }
    }
    return protecting + inputs + joined.flatMap { $0.parts.map(\.file) } + profile.video.compactMap(\.source)
      + subtitles
      + profile.encryption.keyFiles.map { URL(fileURLWithPath: $0, isDirectory: false) }
  }

  /// Each asset's keys folder, `<keys folder>/<asset>`, when the keys are
  /// kept out of the assets. None may be an asset of the run, lie inside one
  /// or contain one: its keys would be published with the asset, or replace it.
  public static func keysDestinations(for destinations: [URL], keysFolder: URL?) throws -> [URL?] {
    guard let keysFolder else { return destinations.map { _ in nil } }
    let assets = destinations.map(\.standardizedFileURL)
    return try destinations.map { destination in
      let keys = keysFolder.appendingPathComponent(destination.lastPathComponent).standardizedFileURL
      for asset in assets
      where keys.pathComponents.starts(with: asset.pathComponents)
        || asset.pathComponents.starts(with: keys.pathComponents)
      {
        throw PackError.output(
          path: keys.path,
          reason: "an asset's keys folder must lie outside the assets, but this one is or holds the asset \(asset.path)"
        )
      }
      return keys
    }
  }

  /// `joined`: assets joined from parts (the profile's), made after `inputs`' assets.
  public func run(inputs: [URL], joined: [JoinedInput] = []) throws -> [Outcome] {
    var destinations = try Self.destinations(for: inputs, output: output)
    for asset in joined {
      let folder = output.appendingPathComponent(asset.asset)
      if let i = destinations.firstIndex(where: { $0.lastPathComponent.utf8.elementsEqual(asset.asset.utf8) }) {
        throw PackError.input(
          path: inputs[i].path, reason: "would write the same asset folder \"\(asset.asset)\" as an input made of parts")
      }
      destinations.append(folder)
    }
    let sources = inputs + joined.compactMap { $0.parts.first?.file }
    let joinedBySource: [JoinedInput?] = inputs.map { _ in nil } + joined.map { Optional($0) }
    let encrypts = SegmentProtection(profile).encrypts
    let keysDestinations = try Self.keysDestinations(
      for: destinations, keysFolder: encrypts ? profile.encryption.keysFolder : nil)
    // A run that publishes nothing leaves no output folder it made itself.
    let outputExisted = FileManager.default.fileExists(atPath: output.path)
    defer { if !outputExisted { rmdir(output.path) } }
    let readFiles = filesRead(inputs: inputs, joined: joined)
    return sources.indices.map { index in
      let input = sources[index]
      let destination = destinations[index]
      var encoder = AssetMaker(
        profile: profile, input: input, destination: destination, keysDestination: keysDestinations[index],
        replace: replace, protecting: readFiles,
        progress: progress, logger: logger)
      encoder.joined = joinedBySource[index]
      encoder.reproducible = reproducible
      encoder.verifies = verifies
      do {
        let report = try encoder.encode()
        logger.info("\(input.path) → \(destination.path)")
        return Outcome(input: input, destination: destination, report: report, error: nil)
      } catch {
        let packError = (error as? PackError) ?? .media(path: input.path, reason: "\(error)")
        progress.report(
          ProgressEvent(
            event: .failed, asset: destination.lastPathComponent, input: input.path, message: packError.description))
        return Outcome(input: input, destination: destination, report: nil, error: packError)
      }
    }
  }
}
