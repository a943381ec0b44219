import Foundation
import HLSPackCore

/// One asset of a batch with everything it will be made with: the manifest
/// line, the profile after that line's overrides, and where it goes.
public struct BatchPlan: Sendable {
  public var entry: ManifestEntry
  public var profile: Profile
  public var destination: URL

  /// Reads each line's profile (`--profile`, or the line's own), with the
  /// line's settings written into it, so every check and message of a profile
  /// applies; a failure names the manifest line and the field.
  public static func make(
    entries: [ManifestEntry], manifest: String, defaultProfile: URL?, output: URL,
    settings: CommandLineSettings = CommandLineSettings(), environment: [String: String]
  ) throws(ManifestError) -> [BatchPlan] {
    var documents: [URL: JSONValue] = [:]
    var plans: [BatchPlan] = []
    for entry in entries {
      func fail(_ field: String?, _ message: String) -> ManifestError {
        ManifestError(file: manifest, line: entry.line, field: field, message: message)
      }
      guard let profileURL = entry.profile ?? defaultProfile else {
        throw fail("profile", "no profile: give --profile or a \"profile\" field")
      }
      do {
        let document: JSONValue
        if let cached = documents[profileURL] {
          document = cached
        } else {
          document = try ProfileLoader.document(contentsOf: profileURL)
          documents[profileURL] = document
        }
        var profile = try ProfileLoader.load(
          root: try entry.overrides.applied(to: document), file: profileURL.path,
          baseDirectory: ProfileLoader.baseDirectory(of: profileURL), environment: environment)
        do {
          try settings.apply(to: &profile)
        } catch {
          throw fail(error.field, error.description)
        }
        plans.append(BatchPlan(entry: entry, profile: profile, destination: output.appendingPathComponent(entry.asset)))
      } catch let error as ManifestError {
        throw error
      } catch let failure as OverrideFailure {
        throw fail(failure.field, failure.message)
      } catch let error as ProfileError {
        let field = entry.overrides.field(forProfilePath: error.path) ?? (entry.profile != nil ? "profile" : nil)
        throw fail(field, error.description)
      } catch {
        throw fail(nil, "\(error)")
      }
    }
    return plans
  }
}
