/// The one table of verify's rules: what `verify` can report, and what the
/// rule table of docs/verify.md is generated from (`VerifyRulesDocTests`).
extension VerifyRules {
  public static let all: [VerifyRule] = [
    segmentNotVerifiable,
    numberInvalid,
    packageOutsideBoundary,
    variantAttributeMissing,
    bandwidthAbovePeak,
    peakOverTwiceAverage,
    segmentSampleAESUndecryptable,
    segmentCBCSUndecryptable,
    segmentCBCSSubsampleMap,
    segmentNoKeyframeStart,
    segmentTSContinuity,
    segmentTimestampGap,
    segmentExtinfOff,
    segmentSampleDescriptions,
    variantCodecsMismatch,
    variantCodecsAudioMismatch,
    variantCodecsAV1Mismatch,
    variantResolutionMismatch,
    variantFrameRateMismatch,
    variantVideoRangeMismatch,
    variantsMisaligned,
    discontinuityMismatch,
    programDateTimeInvalid,
    programDateTimeInconsistent,
    iFrameNotOnePicture,
    playlistUnreadable,
    extm3uMissing,
    versionTooLow,
    versionRepeated,
    extinfMissing,
    targetDurationMissing,
    targetDurationExceeded,
    endListMissing,
    mapAfterKey,
    mediaSequenceInvalid,
    groupUnresolved,
    bandwidthBelowPeak,
    averageBandwidthOff,
    sessionKeyMismatch,
    sessionKeyRepeated,
    renditionAttributeInvalid,
    renditionDefaultNotAutoselect,
    renditionForcedNotSubtitles,
    renditionClosedCaptionsInvalid,
    renditionDefaultRepeated,
    renditionNameRepeated,
    keyMethodInvalid,
    keyURIMissing,
    keyIVMalformed,
    keyFormatMalformed,
    keyNoneWithAttributes,
    keyFileMissing,
    keyFileSize,
    keyFileWorldReadable,
    keyUnavailable,
    keyIVReused,
    segmentMissing,
    segmentUnreadable,
    segmentByteRangeInvalid,
    segmentAES128Length,
    segmentAES128Undecryptable,
    iFrameRangeInvalid,
    segmentTSSyncLost,
  ]

  /// The rule table of docs/verify.md: one row a rule, by id.
  public static func markdownTable() -> String {
    var lines = ["| Rule | Severity | Origin | Fixed by | What fails |", "| --- | --- | --- | --- | --- |"]
    for rule in all.sorted(by: { $0.id < $1.id }) {
      lines.append(
        "| `\(rule.id)` | \(rule.severity.rawValue) | \(rule.origin.rawValue) | \(rule.owner.rawValue) | \(rule.summary) |")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
