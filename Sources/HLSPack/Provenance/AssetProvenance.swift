import Foundation
import HLSPackCore
import HLSPackCrypto

/// What made an asset, written beside it as provenance.json: the input and
/// every other file it read (a rung's own source, subtitle files), a digest of
/// the effective profile, and the hlspack version. A batch rerun compares a
/// fresh one with it to skip assets that are up to date without decoding.
public struct AssetProvenance: Sendable, Codable, Equatable {
  public static let fileName = "provenance.json"

  public var tool = "hlspack"
  public var version: String
  public var input: FileFingerprint
  /// The other files read, in profile order.
  public var sources: [FileFingerprint]
  public var profileSHA256: String

  enum CodingKeys: String, CodingKey {
    case tool, version, input, sources
    case profileSHA256 = "profile_sha256"
  }

  /// `reproducible`: the run's record must repeat to the byte, so it holds no times.
  /// `otherParts`: the further sources of an asset joined from parts, in order.
  public init(profile: Profile, input: URL, otherParts: [URL] = [], reproducible: Bool) throws {
    version = HLSPackVersion.current
    let timed = !reproducible
    self.input = try FileFingerprint.of(input, withModificationTime: timed)
    let stem = input.deletingPathExtension().lastPathComponent
    let files =
      otherParts + profile.video.compactMap(\.source)
      + profile.subtitles.map {
        URL(fileURLWithPath: $0.file.replacingOccurrences(of: "{stem}", with: stem))
      }
    sources = try files.map { try FileFingerprint.of($0, withModificationTime: timed) }
    profileSHA256 = try Self.digest(of: profile)
  }

  /// SHA-256 of the profile's full description with every setting after
  /// overrides (key bytes included: a 128-bit key cannot be found from it),
  /// less its inputs and output folder, which do not change what is made.
  /// Profile holds no dictionary or set, so the description is the same in
  /// every process. A setting added in a later version is described only
  /// once it is set, so that an asset made before it existed is not taken for
  /// one made from another profile (`batch` would make it again).
  static func digest(of profile: Profile) throws -> String {
    var effective = profile
    effective.inputs = []
    effective.joinedInputs = []
    effective.output = nil
    var description = String(reflecting: effective)
    for unset in laterSettingsUnset {
      description = description.replacingOccurrences(of: unset, with: "")
    }
    return Hex.encode(try Digest.sha256(Array(description.utf8)))
  }

  /// How each setting added after the first release reads in the description while unset.
  static let laterSettingsUnset = [", programDateTime: nil", ", singleFile: false", ", joinedInputs: []"]

  /// The record of the asset published at `folder`, if it has a readable one:
  /// a regular file, never a link, pipe or device put there in its place.
  public static func recorded(in folder: URL) -> AssetProvenance? {
    let file = folder.appendingPathComponent(fileName).path
    guard let bytes = try? SmallFile.readRegular(file, limit: 1 << 20, followingLinks: false) else { return nil }
    return try? JSONDecoder().decode(AssetProvenance.self, from: Data(bytes))
  }

  func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self) + Data("\n".utf8)
  }
}
