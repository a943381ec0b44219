import Foundation
import HLSPackCore
import HLSPackPackage
import HLSPackVerify
import Logging

/// `encode --verify`: the asset in its staging folder is checked as
/// `hlspack verify` checks a package, with the keys just made (keys.json, in
/// the asset or in its keys folder), so that app-scheme key URIs verify too.
/// A must-fix finding refuses publication; should-fix ones are warnings.
enum StagedVerification {
  static func check(
    staged folder: URL, keysFolder: URL, destination: URL, logger: Logger
  ) throws {
    var verifier = PackageVerifier(source: LocalPackageFolder(folder: folder), entry: PackageVerifier.defaultEntry)
    verifier.sampleAES = SampleAESDecryptor.self
    let manifest = keysFolder.appendingPathComponent(KeysManifestFile.name)
    let report: VerifyReport
    do {
      if FileManager.default.fileExists(atPath: manifest.path) { try verifier.providedKeys.add(manifest: manifest) }
      report = try verifier.run()
    } catch {
      throw PackError.output(
        path: destination.path, reason: "cannot verify the asset (\(error)); nothing was published")
    }
    let mustFix = summary(report, .must)
    guard mustFix.isEmpty else {
      throw PackError.output(
        path: destination.path,
        reason: "verify found must-fix problems: \(mustFix); nothing was published (hlspack verify explains each rule)")
    }
    let shouldFix = summary(report, .should)
    if !shouldFix.isEmpty { logger.warning("\(destination.lastPathComponent): verify: should fix \(shouldFix)") }
  }

  /// "rule ×count (first place: detail), …" for the failing rules of one severity.
  private static func summary(_ report: VerifyReport, _ severity: VerifyRule.Severity) -> String {
    var counts: [(id: String, count: Int, first: Finding)] = []
    for finding in report.findings where finding.rule.severity == severity {
      if let index = counts.firstIndex(where: { $0.id == finding.rule.id }) {
        counts[index].count += 1
      } else {
        counts.append((finding.rule.id, 1, finding))
      }
    }
    return counts.map { "\($0.id) ×\($0.count) (\($0.first.place): \($0.first.detail))" }.joined(separator: ", ")
  }
}
