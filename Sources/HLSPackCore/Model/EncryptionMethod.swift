/// How segments are encrypted (EXT-X-KEY METHOD, RFC 8216bis §4.4.4.4).
public enum EncryptionMethod: String, Sendable, Equatable, CaseIterable {
  case none
  /// The whole segment, AES-128-CBC with PKCS#7.
  case aes128 = "aes-128"
  /// Elementary streams encrypted inside the segment (Apple's SAMPLE-AES for MPEG-TS).
  case sampleAES = "sample-aes"
}
