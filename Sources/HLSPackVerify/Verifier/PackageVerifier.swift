import Foundation
import HLSPackCore
import HLSPackPackage

import HLSPackCrypto

/// Checks an HLS package made by any packager, in a folder or on a web
/// server: its playlists, its key files and every byte of its segments,
/// decrypting AES-128 ones.
public struct PackageVerifier {
  /// Where the package's files are read from; every location is reported relative to its folder.
  public let source: any PackageSource
  /// The playlist verification starts from, relative to the package folder.
  public let entry: String
  /// Keys for URIs the package cannot serve itself (`--key`, `--keys`).
  public var providedKeys = ProvidedKeys()
  /// The rules whose findings are reported (`--rules`).
  public var rules = VerifyRuleSet.apple
  /// How many segments of each media playlist have their bytes read (`--sample`); nil: all.
  public var sample: Int?
  /// Undoes SAMPLE-AES, so that encrypted MPEG-TS payloads are checked too;
  /// nil: they are checked as packets only.
  public var sampleAES: (any SampleAESDecrypting.Type)?

  public init(source: any PackageSource, entry: String) {
    self.source = source
    self.entry = entry
  }

  /// What one media playlist's segments weigh, for the bandwidth rules; nil
  /// when a segment is missing or has no duration, so nothing can be measured.
  struct Measured {
    var samples: [BandwidthMeter.Sample]
    var targetDuration: Int
  }

  struct RangeCheck {
    var segment: VerifiedMediaPlaylist.Segment
    var range: (length: Int, offset: Int)
    var resource: String
    var size: Int
    var file: String
    var folder: String
  }

  /// What one run has found and read so far, by concern.
  struct Run {
    var findings: [Finding] = []
    var tally = VerifyTally()
    var keys: KeyLedger
    var reads = SegmentReads()
    var facts = BitstreamFacts()
    let cipher: AES128CBC
  }

  public func run() throws(VerifyError) -> VerifyReport {
    let bytes: [UInt8]
    do {
      bytes = try source.readWhole(entry, limit: PackageFiles.playlistLimit)
    } catch {
      throw VerifyError(description: "\(source.root)\(entry): cannot read the playlist: \(error.detail(entry))")
    }
    let cipher: AES128CBC
    do { cipher = try AES128CBC() } catch { throw VerifyError(description: "AES-128-CBC unavailable: \(error)") }
    var run = Run(keys: KeyLedger(store: VerifyKeyStore(source: source, provided: providedKeys)), cipher: cipher)
    let text = PlaylistText(bytes)
    run.tally.playlists += 1
    run.findings += PlaylistRules.common(text, file: entry)
    if text.isMultivariant {
      verifyMultivariant(text, run: &run)
    } else {
      _ = verifyMedia(text, file: entry, run: &run)
    }
    for check in run.reads.ranges
    where !run.reads.broken.contains(check.resource) && (sample == nil || run.reads.whole.contains(check.resource)) {
      checkRange(check, run: &run)
    }
    // Requests made after the run's deadline failed at once: the report would miss what they read.
    if let expired = source.expired {
      throw VerifyError(
        description:
          "\(source.root)\(entry): verify stopped, \(expired); \(run.tally.playlists) playlists and \(run.tally.segments) segments were read, the report is incomplete"
      )
    }
    let findings = run.findings + run.keys.store.findings + KeyRules.uniquePairs(run.keys.uses)
    var report = VerifyReport(
      findings: findings.filter { rules.includes($0.rule) }, playlists: run.tally.playlists, segments: run.tally.segments,
      bytes: run.tally.bytes)
    report.sample = sample
    return report
  }

  /// A finding for a resource that cannot be read: outside the package, or
  /// `otherwise` (missing, unreadable), with `note` after the detail.
  static func accessFinding(
    _ failure: SourceFailure, path: String, otherwise rule: VerifyRule, file: String, line: Int? = nil,
    segment: String? = nil, note: String = ""
  ) -> Finding {
    let found: VerifyRule
    if case .outside = failure { found = VerifyRules.packageOutsideBoundary } else { found = rule }
    return Finding(found, file: file, line: line, segment: segment, detail: failure.detail(path) + note)
  }
}
