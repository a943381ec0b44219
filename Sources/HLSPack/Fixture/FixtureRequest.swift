import Foundation
import HLSPackCore
import HLSPackMedia

/// A refused `hlspack fixture` request, or a fixture the pipeline could not make.
public struct FixtureRequestError: Error, CustomStringConvertible {
  public var description: String
  /// The request itself is wrong (nothing was started).
  public var isUsage: Bool
  init(_ description: String, usage: Bool = true) {
    self.description = description
    isUsage = usage
  }
}

/// What `hlspack fixture make` was asked for, checked before anything is written.
public struct FixtureRequest: Sendable {
  public static let durations = 1.0...600.0
  public static let fps = 25

  public var output: URL
  public var duration: Double
  public var seed: String
  /// Fixture ids to make; nil for all of them.
  public var only: [String]?
  /// Footage to label instead of the synthesised source.
  public var source: URL?
  /// Keep the synthesised source as DIR/source/labelled.mkv, to package it
  /// again with another profile (e.g. a fixture's clear twin).
  public var keepSource = false

  public init(output: URL, duration: Double, seed: String, only: [String]?, source: URL?) {
    self.output = output
    self.duration = duration
    self.seed = seed
    self.only = only
    self.source = source
  }

  public static var knownIDs: [String] { FixtureCase.ids }

  /// Throws a `FixtureRequestError` naming the option at fault.
  public func validate() throws {
    guard duration.isFinite, Self.durations.contains(duration) else {
      throw FixtureRequestError(
        "--duration must be from \(Int(Self.durations.lowerBound)) to \(Int(Self.durations.upperBound)) seconds, found \(duration)")
    }
    guard !seed.isEmpty else { throw FixtureRequestError("--seed must not be empty") }
    if let only {
      guard !only.isEmpty else { throw FixtureRequestError("--only names no fixture; known: \(Self.knownIDs.joined(separator: ", "))") }
      for id in only where !Self.knownIDs.contains(id) {
        throw FixtureRequestError("--only: unknown fixture \"\(id)\"; known: \(Self.knownIDs.joined(separator: ", "))")
      }
    }
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: output.path, isDirectory: &isFolder) {
      guard isFolder.boolValue else { throw FixtureRequestError("--output \(output.path) is a file, not a folder") }
      let contents = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
      guard contents.isEmpty else {
        throw FixtureRequestError("--output \(output.path) is not empty; name a new or empty folder")
      }
    }
    if let source {
      do {
        try SourceProbe.checkDecodes(path: source.path)
      } catch let error as PackError {
        throw FixtureRequestError("--source: \(error)")
      }
    }
  }

  var fixtures: [FixtureCase] {
    guard let only else { return FixtureCase.matrix }
    return FixtureCase.matrix.filter { only.contains($0.id) }
  }

  var frameCount: Int { Int((duration * Double(Self.fps)).rounded()) }
}
