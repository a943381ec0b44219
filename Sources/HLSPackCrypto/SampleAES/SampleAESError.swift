/// Why a SAMPLE-AES encryptor or decryptor refused its input. Every refusal is
/// an error rather than a pass-through, because media left clear by mistake
/// would still play and nobody would notice.
public enum SampleAESError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The key is not 16 bytes.
  case keyLength(Int)
  /// The IV is not 16 bytes.
  case ivLength(Int)
  /// An H.264 access unit that does not open with an Annex B start code.
  case missingStartCode
  /// An ADTS frame that cannot be delimited (bad syncword, frame_length).
  case adts(offset: Int, reason: String)
  /// An AC-3 syncframe that cannot be delimited (syncword, fscod, frmsizecod, bsid).
  case ac3(offset: Int, reason: String)

  public var description: String {
    switch self {
    case .keyLength(let n): "SAMPLE-AES key is \(n) bytes, expected 16"
    case .ivLength(let n): "SAMPLE-AES IV is \(n) bytes, expected 16"
    case .missingStartCode: "H.264 access unit does not start with an Annex B start code"
    case .adts(let offset, let reason): "ADTS frame at byte \(offset): \(reason)"
    case .ac3(let offset, let reason): "AC-3 syncframe at byte \(offset): \(reason)"
    }
  }
}
