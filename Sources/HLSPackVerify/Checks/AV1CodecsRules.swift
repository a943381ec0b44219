import HLSPackCore

/// A variant's `av01` CODECS entries against the AV1 sequence header its
/// segments carry (AV1 Codec ISO Media File Format Binding §5): profile,
/// level and tier of the first operating point and bit depth, and in the
/// long form the colour fields as well. A long form names the same stream
/// as the short one, so the strings are compared field by field, not whole.
enum AV1CodecsRules {
  /// Findings for the av01 entries among `entries` (lower-cased), and the
  /// carried codec strings they account for (right or reported wrong), which
  /// `variant.codecs-mismatch` then leaves alone.
  static func check(
    entries: [String], header: AV1SequenceHeader?, variant: VerifiedMultivariantPlaylist.Variant, file: String
  ) -> (findings: [Finding], explained: Set<String>) {
    let declared = entries.filter { $0.hasPrefix("av01.") }
    guard let header, !declared.isEmpty else { return ([], []) }
    let problems = declared.map { ($0, header.mismatch(declared: $0)) }
    // A variant carries one video stream: every av01 entry must describe it.
    let findings = problems.compactMap { entry, problem in
      problem.map {
        Finding(
          VerifyRules.variantCodecsAV1Mismatch, file: file, line: variant.line, segment: variant.uri,
          detail: "CODECS entry \"\(entry)\": \($0)")
      }
    }
    return (findings, [header.codecString.lowercased()])
  }
}
