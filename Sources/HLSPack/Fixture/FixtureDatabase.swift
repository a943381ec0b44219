import Foundation

/// DIR/fixtures.json (schema: Profiles/fixtures.schema.json): what each
/// fixture is, where its playlist is, its test keys, and the labelled
/// content's timing, for test harnesses and player teams.
public struct FixtureDatabase: Codable, Sendable, Equatable {
  public struct Fixture: Codable, Sendable, Equatable {
    public var id: String
    public var description: String
    /// The multivariant playlist, relative to the database's folder.
    public var master: String
    public var method: String
    public var container: String
    public var videoCodec: String
    public var features: [String]
    /// The keys as 32 hex digits (test keys): a key URI with a scheme exactly
    /// as EXT-X-KEY writes it, a key file by its path relative to the database's folder.
    public var keys: [String: String]
    /// Pictures every video rendition has; nil when made from a `--source` of unknown length.
    public var frames: Int?
    /// The `Profiles/scenarios/` file to serve the fixture with, where one applies.
    public var scenario: String?
    /// The generated profile it was made from, relative to the database's folder.
    public var profile: String

    enum CodingKeys: String, CodingKey {
      case id, description, master, method, container, features, keys, frames, scenario, profile
      case videoCodec = "video_codec"
    }
  }

  public var version = 1
  public var fps: Int
  /// Seconds of content in every fixture.
  public var duration: Double
  public var seed: String
  /// The QR code's text in every picture.
  public var qrPayload = "HLSPACK/1 r=<rendition name> f=<frame number from 0> t=<media time in ms>"
  /// Start of each flash frame (its top eighth white) and of its 1 kHz beep, in seconds.
  public var syncEvents: [Double]
  public var fixtures: [Fixture]

  enum CodingKeys: String, CodingKey {
    case version, fps, duration, seed, fixtures
    case qrPayload = "qr_payload"
    case syncEvents = "sync_events"
  }

  public static func read(from file: URL) throws -> FixtureDatabase {
    try JSONDecoder().decode(FixtureDatabase.self, from: Data(contentsOf: file))
  }

  func write(to file: URL) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    try encoder.encode(self).write(to: file, options: .atomic)
  }
}
