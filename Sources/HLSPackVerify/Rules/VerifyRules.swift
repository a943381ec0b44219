import HLSPackCore

/// Every rule `hlspack verify` checks. Sections of RFC 8216bis are those of
/// draft-pantos-hls-rfc8216bis (docs/conformance.md, Sources); RFC 8216's §4.3.x
/// is §4.4.x there.
public enum VerifyRules {
  // MARK: Playlists

  public static let playlistUnreadable = VerifyRule(
    id: "playlist.unreadable", severity: .must, source: "RFC 8216bis §4", origin: .rfc8216bis, owner: .publisher,
    summary: "a playlist the package refers to cannot be read")
  public static let extm3uMissing = VerifyRule(
    id: "playlist.extm3u-missing", severity: .must, source: "RFC 8216bis §4.4.1.1", origin: .rfc8216bis, owner: .packager,
    summary: "the first line is not #EXTM3U")
  public static let versionTooLow = VerifyRule(
    id: "playlist.version-too-low", severity: .must, source: "RFC 8216bis §4.4.1.2, §8", origin: .rfc8216bis, owner: .packager,
    summary: "EXT-X-VERSION is lower than a feature the playlist uses needs")
  public static let versionRepeated = VerifyRule(
    id: "playlist.version-repeated", severity: .must, source: "RFC 8216bis §4.4.1.2", origin: .rfc8216bis, owner: .packager,
    summary: "a playlist has more than one EXT-X-VERSION")
  public static let extinfMissing = VerifyRule(
    id: "playlist.extinf-missing", severity: .must, source: "RFC 8216bis §4.4.4.1", origin: .rfc8216bis, owner: .packager,
    summary: "a segment has no EXTINF with a decimal duration")
  public static let targetDurationMissing = VerifyRule(
    id: "playlist.targetduration-missing", severity: .must, source: "RFC 8216bis §4.4.3.1", origin: .rfc8216bis, owner: .packager,
    summary: "a media playlist has no valid EXT-X-TARGETDURATION")
  public static let targetDurationExceeded = VerifyRule(
    id: "playlist.targetduration-exceeded", severity: .must, source: "RFC 8216bis §4.4.3.1", origin: .rfc8216bis, owner: .packager,
    summary: "an EXTINF duration, rounded to the nearest integer, exceeds EXT-X-TARGETDURATION")
  public static let endListMissing = VerifyRule(
    id: "playlist.endlist-missing", severity: .must, source: "RFC 8216bis §4.4.3.4, §4.4.3.5", origin: .rfc8216bis, owner: .packager,
    summary: "a VOD media playlist has no EXT-X-ENDLIST")
  public static let mapAfterKey = VerifyRule(
    id: "playlist.map-after-key", severity: .must, source: "RFC 8216bis §4.4.4.4, §4.4.4.5", origin: .rfc8216bis, owner: .packager,
    summary:
      "an EXT-X-KEY precedes an EXT-X-MAP, so it applies to the initialization section, which is clear (an AES-128 one that decrypts is encrypted, as intended)"
  )
  public static let mediaSequenceInvalid = VerifyRule(
    id: "playlist.media-sequence-invalid", severity: .must, source: "RFC 8216bis §4.4.3, §4.4.3.2", origin: .rfc8216bis, owner: .packager,
    summary: "EXT-X-MEDIA-SEQUENCE is repeated, follows the first segment, or is not a decimal-integer")
  public static let discontinuitySequenceInvalid = VerifyRule(
    id: "playlist.discontinuity-sequence-invalid", severity: .must, source: "RFC 8216bis §4.4.3.3", origin: .rfc8216bis, owner: .packager,
    summary: "EXT-X-DISCONTINUITY-SEQUENCE is repeated, follows a segment or an EXT-X-DISCONTINUITY, or is not a decimal-integer")

  // MARK: Multivariant playlist

  public static let groupUnresolved = VerifyRule(
    id: "multivariant.group-unresolved", severity: .must, source: "RFC 8216bis §4.4.6.2", origin: .rfc8216bis, owner: .packager,
    summary: "a variant names a rendition group that no EXT-X-MEDIA tag of that TYPE defines")
  public static let bandwidthBelowPeak = VerifyRule(
    id: "multivariant.bandwidth-below-peak", severity: .must, source: "RFC 8216bis §4.4.6.2", origin: .rfc8216bis, owner: .packager,
    summary: "BANDWIDTH is below the measured peak segment bit rate")
  public static let averageBandwidthOff = VerifyRule(
    id: "multivariant.average-bandwidth-off", severity: .must,
    source:
      "RFC 8216bis §4.4.6.2; Apple HLS Authoring Specification (average segment bit rate within 10% of AVERAGE-BANDWIDTH)",
    origin: .rfc8216bis, owner: .packager,
    summary: "AVERAGE-BANDWIDTH differs from the measured average segment bit rate by more than 10%")
  public static let iFrameBandwidthOff = VerifyRule(
    id: "multivariant.iframe-bandwidth-off", severity: .must,
    source:
      "RFC 8216bis §4.4.6.3, §4.4.6.2, §4.1; Apple HLS Authoring Specification (average segment bit rate within 10% of AVERAGE-BANDWIDTH)",
    origin: .rfc8216bis, owner: .packager,
    summary:
      "an EXT-X-I-FRAME-STREAM-INF's BANDWIDTH is below the peak bit rate of its I-frames (their byte ranges), or its AVERAGE-BANDWIDTH differs from their average bit rate by more than 10%"
  )

  public static let sessionKeyMismatch = VerifyRule(
    id: "multivariant.session-key-mismatch", severity: .must, source: "RFC 8216bis §4.4.6.5", origin: .rfc8216bis, owner: .packager,
    summary: "an EXT-X-SESSION-KEY's METHOD, KEYFORMAT or KEYFORMATVERSIONS differs from an EXT-X-KEY with the same URI"
  )
  public static let sessionKeyRepeated = VerifyRule(
    id: "multivariant.session-key-repeated", severity: .must, source: "RFC 8216bis §4.4.6.5", origin: .rfc8216bis, owner: .packager,
    summary: "two EXT-X-SESSION-KEY tags have the same METHOD, URI, IV, KEYFORMAT and KEYFORMATVERSIONS")

  // MARK: Renditions

  public static let renditionAttributeInvalid = VerifyRule(
    id: "rendition.attribute-invalid", severity: .must, source: "RFC 8216bis §4.4.6.1", origin: .rfc8216bis, owner: .packager,
    summary: "an EXT-X-MEDIA lacks TYPE, GROUP-ID or NAME, or has an unknown TYPE")
  public static let renditionDefaultNotAutoselect = VerifyRule(
    id: "rendition.default-not-autoselect", severity: .must, source: "RFC 8216bis §4.4.6.1", origin: .rfc8216bis, owner: .packager,
    summary: "an EXT-X-MEDIA with DEFAULT=YES has AUTOSELECT=NO")
  public static let renditionForcedNotSubtitles = VerifyRule(
    id: "rendition.forced-not-subtitles", severity: .must, source: "RFC 8216bis §4.4.6.1", origin: .rfc8216bis, owner: .packager,
    summary: "FORCED appears on an EXT-X-MEDIA whose TYPE is not SUBTITLES")
  public static let renditionClosedCaptionsInvalid = VerifyRule(
    id: "rendition.closed-captions-invalid", severity: .must, source: "RFC 8216bis §4.4.6.1", origin: .rfc8216bis, owner: .packager,
    summary: "a CLOSED-CAPTIONS rendition has a URI or no INSTREAM-ID")
  public static let renditionDefaultRepeated = VerifyRule(
    id: "rendition.default-repeated", severity: .must, source: "RFC 8216bis §4.4.6.1.1", origin: .rfc8216bis, owner: .packager,
    summary: "a rendition group has more than one member with DEFAULT=YES")
  public static let renditionNameRepeated = VerifyRule(
    id: "rendition.name-repeated", severity: .must, source: "RFC 8216bis §4.4.6.1.1", origin: .rfc8216bis, owner: .packager,
    summary: "two members of a rendition group have the same NAME")

  // MARK: Keys

  public static let keyMethodInvalid = VerifyRule(
    id: "key.method-invalid", severity: .must, source: "RFC 8216bis §4.4.4.4", origin: .rfc8216bis, owner: .packager,
    summary: "EXT-X-KEY has no METHOD or an unknown one")
  public static let keyURIMissing = VerifyRule(
    id: "key.uri-missing", severity: .must, source: "RFC 8216bis §4.4.4.4", origin: .rfc8216bis, owner: .packager,
    summary: "EXT-X-KEY with a METHOD other than NONE has no quoted URI")
  public static let keyIVMalformed = VerifyRule(
    id: "key.iv-malformed", severity: .must, source: "RFC 8216bis §4.2, §4.4.4.4", origin: .rfc8216bis, owner: .packager,
    summary: "the IV is not a hexadecimal-sequence of at most 128 bits")
  public static let keyFormatMalformed = VerifyRule(
    id: "key.keyformat-malformed", severity: .must, source: "RFC 8216bis §4.4.4.4", origin: .rfc8216bis, owner: .packager,
    summary: "KEYFORMAT or KEYFORMATVERSIONS is not a quoted-string of the defined form")
  public static let keyNoneWithAttributes = VerifyRule(
    id: "key.none-with-attributes", severity: .must, source: "RFC 8216bis §4.4.4.4", origin: .rfc8216bis, owner: .packager,
    summary: "METHOD=NONE carries other attributes")
  public static let keyFileMissing = VerifyRule(
    id: "key.file-missing", severity: .must, source: "RFC 8216bis §4.4.4.4, §5.1", origin: .rfc8216bis, owner: .publisher,
    summary: "the key file a relative key URI names does not exist")
  public static let keyFileSize = VerifyRule(
    id: "key.file-size", severity: .must, source: "RFC 8216bis §5.1", origin: .rfc8216bis, owner: .packager,
    summary: "an AES-128 key file is not 16 octets")
  public static let keyFileWorldReadable = VerifyRule(
    id: "key.file-world-readable", severity: .should, source: "docs/profile.md, Keys and keys.json (key files mode 0600)",
    origin: .hlspack, owner: .publisher, summary: "a key file can be read by every local user")
  public static let keyUnavailable = VerifyRule(
    id: "key.unavailable", severity: .should, source: "RFC 8216bis §4.4.4.4", origin: .rfc8216bis, owner: .publisher,
    summary: "no key bytes for this key URI: the checks of its segments' bytes were not made")
  public static let keyMapIVMissing = VerifyRule(
    id: "key.map-iv-missing", severity: .must, source: "RFC 8216bis §4.4.4.5", origin: .rfc8216bis, owner: .packager,
    summary:
      "the AES-128 EXT-X-KEY that applies to an encrypted initialization section has no IV (there is no media sequence number to derive one from)"
  )
  public static let keyIVReused = VerifyRule(
    id: "key.iv-reused", severity: .should, source: "RFC 8216bis §5.2; docs/conformance.md (explicit IVs)",
    origin: .rfc8216bis, owner: .packager,
    summary:
      "one (key, IV) pair encrypts more than one segment: CBC then shows which segments begin with the same bytes (each TS segment opens with the same PAT packet)"
  )

  // MARK: Segments

  public static let segmentMissing = VerifyRule(
    id: "segment.missing", severity: .must, source: "RFC 8216bis §3", origin: .rfc8216bis, owner: .publisher,
    summary: "a segment or initialization section file the playlist lists does not exist")
  public static let segmentUnreadable = VerifyRule(
    id: "segment.unreadable", severity: .must, source: "RFC 8216bis §3, §4.4.4.5", origin: .rfc8216bis, owner: .publisher,
    summary:
      "a segment or initialization section the playlist lists is there but cannot be read to its end (a read error, an HTTP error, a body cut off, not an initialization section)"
  )
  public static let segmentByteRangeInvalid = VerifyRule(
    id: "segment.byterange-invalid", severity: .must, source: "RFC 8216bis §4.2, §4.4.4.2", origin: .rfc8216bis, owner: .packager,
    summary:
      "an EXT-X-BYTERANGE names no bytes a client can fetch: not n[@o] decimal-integers, empty, without an offset after a segment of another resource, or past the end of its resource"
  )
  public static let segmentAES128Length = VerifyRule(
    id: "segment.aes128-length", severity: .must, source: "RFC 8216bis §5.2", origin: .rfc8216bis, owner: .packager,
    summary: "an AES-128 segment is not a whole number of 16-byte blocks (truncated, or not encrypted)")
  public static let segmentAES128Undecryptable = VerifyRule(
    id: "segment.aes128-undecryptable", severity: .must, source: "RFC 8216bis §3, §5.2", origin: .rfc8216bis, owner: .packager,
    summary:
      "an AES-128 segment does not decrypt to valid PKCS#7 padding and media (wrong key, wrong IV or corrupt bytes)")
  public static let iFrameRangeInvalid = VerifyRule(
    id: "iframe.range-invalid", severity: .must, source: "RFC 8216bis §4.4.3.6, §6.3.6", origin: .rfc8216bis, owner: .packager,
    summary: "an I-frame playlist's byte range does not decrypt to whole media packets or boxes")
  public static let segmentTSSyncLost = VerifyRule(
    id: "segment.ts-sync-lost", severity: .must, source: "RFC 8216bis §3", origin: .rfc8216bis, owner: .packager,
    summary: "a clear MPEG-TS segment is not a sequence of 188-byte packets starting with 0x47")
}
