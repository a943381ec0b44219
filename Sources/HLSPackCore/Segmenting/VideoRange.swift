/// The dynamic range a variant's video is coded for, as the master playlist's
/// VIDEO-RANGE names it (RFC 8216bis §4.4.6.2), from the transfer characteristics
/// of the written stream (H.264/H.265 VUI, ITU-T H.273 code points).
public enum VideoRange: String, Sendable, Codable {
  case sdr = "SDR"
  case hlg = "HLG"
  case pq = "PQ"

  /// 16 is SMPTE ST 2084 (PQ), 18 is ARIB STD-B67 (HLG); every other value,
  /// "unspecified" included, is SDR.
  public init(transferCharacteristics: Int) {
    switch transferCharacteristics {
    case 16: self = .pq
    case 18: self = .hlg
    default: self = .sdr
    }
  }
}
