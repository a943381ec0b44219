import HLSPackCore

/// What a run has read, for the report's last line.
struct VerifyTally {
  var playlists = 0
  var segments = 0
  var bytes = 0

  /// One segment read of `size` bytes; a server's Content-Length is any 63-bit number, so the total saturates.
  mutating func countSegment(size: Int) {
    segments += 1
    bytes = bytes.addingReportingOverflow(size).overflow ? Int.max : bytes + size
  }
}

/// The keys of a run: where they come from, which key and IV each AES-128
/// segment used (`KeyRules.uniquePairs`), and the media playlists' key tags
/// that EXT-X-SESSION-KEY is compared with.
struct KeyLedger {
  var store: VerifyKeyStore
  var uses: [KeyRules.Use] = []
  var media: [SessionKeyRules.MediaKey] = []
}

/// Which segments were read whole or found broken, and the I-frame ranges
/// left to check once every whole segment is: a segment found broken whole
/// is not reported again through its ranges.
struct SegmentReads {
  var ranges: [PackageVerifier.RangeCheck] = []
  var broken: Set<String> = []
  /// Resources whose bytes were read whole: with `sample`, only their I-frame ranges are.
  var whole: Set<String> = []
}

/// What the segments carry, for the rules across segments and variants.
struct BitstreamFacts {
  /// What each media playlist's segments carry, by playlist path.
  var inspected: [String: [InspectedSegment]] = [:]
  /// Parsed fMP4 initialization sections by path; nil when unreadable.
  var initSections: [String: FragmentedInitSection?] = [:]
  /// Why an initialization section of `initSections` could not be read.
  var initSectionProblems: [String: SourceFailure] = [:]
}
