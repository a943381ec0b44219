import HLSPackCore

/// The rules checked on segments' clear or decrypted bitstreams.
extension VerifyRules {
  public static let segmentSampleAESUndecryptable = VerifyRule(
    id: "segment.sample-aes-undecryptable", severity: .must,
    source: "Apple MPEG-2 Stream Encryption Format for HTTP Live Streaming §2; RFC 8216bis §5.2", origin: .apple, owner: .packager,
    summary:
      "a SAMPLE-AES segment does not decrypt to media that parses and decodes (wrong key, wrong IV or corrupt bytes)")
  public static let segmentCBCSUndecryptable = VerifyRule(
    id: "segment.cbcs-undecryptable", severity: .must, source: "ISO/IEC 23001-7 §10.4; RFC 8216bis §5.2",
    origin: .iso, owner: .packager,
    summary: "a cbcs segment's first picture does not decode after decryption (wrong key, wrong IV or corrupt bytes)")
  public static let segmentCBCSSubsampleMap = VerifyRule(
    id: "segment.cbcs-subsample-map", severity: .must, source: "ISO/IEC 23001-7 §7.2 (senc), §10.4", origin: .iso, owner: .packager,
    summary:
      "a cbcs sample's senc record does not cover the sample, or protects bytes outside a slice's data (NAL lengths, headers, slice headers must stay clear)"
  )
  public static let segmentNoKeyframeStart = VerifyRule(
    id: "segment.no-keyframe-start", severity: .must,
    source: "Apple HLS Authoring Specification 7.4; RFC 8216bis §4.4.2.1",
    origin: .apple, owner: .packager, summary: "a video segment's first access unit is not an IDR (sync sample)")
  public static let segmentTSContinuity = VerifyRule(
    id: "segment.ts-continuity", severity: .must, source: "ISO/IEC 13818-1 §2.4.3.3", origin: .iso, owner: .packager,
    summary: "a transport stream packet's continuity_counter skips within a segment")
  public static let segmentTimestampGap = VerifyRule(
    id: "segment.timestamp-gap", severity: .must,
    source: "RFC 8216bis §3, §4.4.4.3; ISO/IEC 13818-1 §2.4.3.7 (PTS); ISO/IEC 14496-12 §8.8.12 (tfdt)",
    origin: .rfc8216bis, owner: .packager,
    summary:
      "a segment's first timestamp is more than one frame from the previous segment's end, with no EXT-X-DISCONTINUITY")
  public static let segmentExtinfOff = VerifyRule(
    id: "segment.extinf-off", severity: .must, source: "RFC 8216bis §4.4.4.1",
    origin: .rfc8216bis, owner: .packager, summary: "an EXTINF duration differs from the segment's media duration by more than one frame")
  public static let segmentSampleDescriptions = VerifyRule(
    id: "segment.init-sample-descriptions", severity: .must,
    source: "RFC 8216bis §3.1.2; ISO/IEC 14496-12 §8.5.2 (stsd), §8.8.7 (sample_description_index)",
    origin: .rfc8216bis, owner: .packager, summary: "an fMP4 initialization section's stsd does not hold exactly one sample entry")
  public static let variantCodecsMismatch = VerifyRule(
    id: "variant.codecs-mismatch", severity: .must, source: "RFC 8216bis §4.4.6.2 (CODECS); RFC 6381", origin: .rfc8216bis, owner: .packager,
    summary: "CODECS does not name the codec, profile and level the segments' bitstream carries")
  public static let variantCodecsAudioMismatch = VerifyRule(
    id: "variant.codecs-audio-mismatch", severity: .must,
    source:
      "RFC 8216bis §4.4.6.2 (CODECS); RFC 6381 §3.3; ISO/IEC 14496-3 §1.6.2.1, §1.6.5 (SBR, PS signalling); ATSC A/52 §5.3.2, Annex E (bsid); Apple HLS Authoring Specification, Values for the CODECS attribute",
    origin: .rfc8216bis, owner: .packager,
    summary:
      "a CODECS audio entry names audio the segments do not carry: HE-AAC (mp4a.40.5) or HE-AACv2 (mp4a.40.29) for AAC without SBR or PS, another AAC object type, ac-3 for E-AC-3 or ec-3 for AC-3"
  )
  public static let variantCodecsAV1Mismatch = VerifyRule(
    id: "variant.codecs-av1-mismatch", severity: .must,
    source: "RFC 8216bis §4.4.6.2 (CODECS); AV1 Codec ISO Media File Format Binding §5 (Codecs Parameter String)",
    origin: .rfc8216bis, owner: .packager,
    summary:
      "an av01 CODECS entry's profile, level, tier or bit depth (or, in the long form, colour fields) differ from the AV1 sequence header the segments carry"
  )
  public static let variantResolutionMismatch = VerifyRule(
    id: "variant.resolution-mismatch", severity: .must, source: "RFC 8216bis §4.4.6.2 (RESOLUTION)", origin: .rfc8216bis, owner: .packager,
    summary: "RESOLUTION differs from the cropped picture size of the first SPS (H.264 or HEVC)")
  public static let variantFrameRateMismatch = VerifyRule(
    id: "variant.frame-rate-mismatch", severity: .must, source: "RFC 8216bis §4.4.6.2 (FRAME-RATE)", origin: .rfc8216bis, owner: .packager,
    summary: "FRAME-RATE differs from the frame rate of the SPS timing or of the timestamps")
  public static let variantVideoRangeMismatch = VerifyRule(
    id: "variant.video-range-mismatch", severity: .must,
    source: "RFC 8216bis §4.4.6.2 (VIDEO-RANGE); ITU-T H.264 and H.265 Annex E (transfer_characteristics)",
    origin: .rfc8216bis, owner: .packager,
    summary:
      "VIDEO-RANGE (absent: SDR) differs from the range the first SPS's transfer_characteristics codes (16 PQ, 18 HLG, else SDR)"
  )
  public static let variantSupplementalCodecsMismatch = VerifyRule(
    id: "variant.supplemental-codecs-mismatch", severity: .must,
    source:
      "RFC 8216bis §4.4.6.2 (SUPPLEMENTAL-CODECS); Apple HLS Authoring Specification, Dolby Vision; Dolby Vision Streams Within the ISO Base Media File Format §3.2 (dvcC, dvvC)",
    origin: .rfc8216bis, owner: .packager,
    summary:
      "a Dolby Vision SUPPLEMENTAL-CODECS entry (dvh1/dvhe) names another profile, level or compatibility brand than the sample entry's dvcC/dvvC, or the segments carry no Dolby Vision configuration or no RPU (NAL type 62) in their first sample"
  )
  public static let variantsMisaligned = VerifyRule(
    id: "variant.segments-misaligned", severity: .must,
    source: "RFC 8216bis §6.2.4; Apple HLS Authoring Specification 8.3",
    origin: .rfc8216bis, owner: .packager, summary: "segments with the same index start at different timestamps in two variants")
  public static let discontinuityMismatch = VerifyRule(
    id: "playlist.discontinuity-mismatch", severity: .must,
    source: "RFC 8216bis §4.4.4.3, §6.2.4; Apple HLS Authoring Specification 8.13–8.15", origin: .rfc8216bis, owner: .packager,
    summary: "EXT-X-DISCONTINUITY does not stand before the same segments in every variant and rendition")
  public static let iFrameNotOnePicture = VerifyRule(
    id: "iframe.not-one-picture", severity: .must,
    source: "RFC 8216bis §4.4.3.6 (EXT-X-I-FRAMES-ONLY); ISO/IEC 14496-12 §8.8.3.1 (sample_is_non_sync_sample)",
    origin: .rfc8216bis, owner: .packager,
    summary: "an I-frame playlist's byte range does not hold exactly one access unit that is a keyframe")
}

/// The rules on EXT-X-PROGRAM-DATE-TIME.
extension VerifyRules {
  public static let programDateTimeInvalid = VerifyRule(
    id: "playlist.program-date-time-invalid", severity: .must, source: "RFC 8216bis §4.4.4.6", origin: .rfc8216bis,
    owner: .packager,
    summary: "an EXT-X-PROGRAM-DATE-TIME is not an ISO 8601 date-time with a time zone")
  public static let programDateTimeInconsistent = VerifyRule(
    id: "playlist.program-date-time-inconsistent", severity: .must, source: "RFC 8216bis §6.2.4", origin: .rfc8216bis,
    owner: .packager,
    summary:
      "one media playlist has EXT-X-PROGRAM-DATE-TIME and another has none, or two variants give the same media time different date-times"
  )
}
