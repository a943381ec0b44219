/// How a rendition's segments are protected: the one decision every stage
/// follows, made once per rendition from the profile's method and container.
/// Who does the work follows from it: the segment writer encrypts whole
/// segments; the muxer encrypts samples before they are packetized (MPEG-TS);
/// the rendition writer protects each fragment and the init segment (fMP4).
public enum SegmentProtection: Sendable, Equatable, CaseIterable {
  /// METHOD=NONE throughout.
  case clear
  /// METHOD=AES-128: each segment file is one AES-128-CBC run with PKCS#7
  /// padding (RFC 8216bis 4.4.4.4), in either container.
  case aes128Segments
  /// METHOD=SAMPLE-AES in MPEG-TS: H.264 NAL units and AAC or AC-3 frames
  /// encrypted in place, the PMT announcing it (Apple, MPEG-2 Stream
  /// Encryption Format for HTTP Live Streaming).
  case sampleAESTransportStream
  /// METHOD=SAMPLE-AES in fMP4: Common Encryption `cbcs` (ISO/IEC 23001-7
  /// clause 10.4), the 1:9 pattern over each sample's protected subsamples.
  case cbcs

  public init(method: EncryptionMethod, container: Container) {
    switch (method, container) {
    case (.none, _): self = .clear
    case (.aes128, _): self = .aes128Segments
    case (.sampleAES, .ts): self = .sampleAESTransportStream
    case (.sampleAES, .fmp4): self = .cbcs
    }
  }

  /// Whether segments carry keys at all (a clear lead aside).
  public var encrypts: Bool { self != .clear }

  /// The playlist's METHOD for protected segments.
  public var method: EncryptionMethod {
    switch self {
    case .clear: .none
    case .aes128Segments: .aes128
    case .sampleAESTransportStream, .cbcs: .sampleAES
    }
  }
}
