import Foundation

/// Settings given on the command line in place of the profile's own
/// (`--seed`, `--export-keys`, `--checksums`, `--keys-dir`), and the one
/// place `encode` and `batch` write them into a profile, with the checks
/// the profile's own fields get.
public struct CommandLineSettings: Sendable, Equatable {
  public var seed: String?
  public var exportKeys = false
  public var checksums = false
  /// `--keys-dir`, resolved against the current folder.
  public var keysFolder: URL?

  public init(seed: String? = nil, exportKeys: Bool = false, checksums: Bool = false, keysFolder: URL? = nil) {
    self.seed = seed
    self.exportKeys = exportKeys
    self.checksums = checksums
    self.keysFolder = keysFolder
  }

  /// A setting the profile cannot take.
  public struct Failure: Error, CustomStringConvertible, Equatable {
    /// The option ("--keys-dir").
    public var option: String
    /// The profile field the option collides with ("key_uri").
    public var field: String
    public var message: String
    public var description: String { "\(option) \(message)" }
  }

  public func apply(to profile: inout Profile) throws(Failure) {
    if let seed {
      guard !seed.isEmpty else { throw Failure(option: "--seed", field: "seed", message: "must not be empty") }
      profile.encryption.seed = seed
    }
    if exportKeys { profile.encryption.exportKeys = true }
    if checksums { profile.segment.checksums = true }
    if let keysFolder {
      profile.encryption.keysFolder = keysFolder
      if profile.encryption.method != .none, let conflict = profile.encryption.keysFolderConflict {
        throw Failure(option: "--keys-dir", field: "key_uri", message: conflict)
      }
    }
  }
}
