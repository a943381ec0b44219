/// Why media bytes could not be read, or protected as they are: the parse
/// error of ISO-BMFF boxes and of H.264/HEVC parameter sets and slice
/// headers, clear or protected, for the packager and for `hlspack verify`.
/// Each message names the box or the bitstream field at fault: `cbcs`
/// protection never guesses at media it cannot map exactly, because a wrong
/// clear region still plays on some clients and fails on Apple's
/// (docs/conformance.md, SAMPLE-AES in fMP4).
public enum MediaFormatError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The ISO-BMFF structure cannot be read (sizes, missing or duplicate boxes).
  case malformedBox(String)
  /// A box or sample entry that this protector does not handle.
  case unsupportedBox(String)
  /// A parameter set or slice header that cannot be read: `where` names the
  /// syntax structure and field, e.g. "HEVC slice header: num_entry_point_offsets".
  case malformedBitstream(where: String, reason: String)
  /// A bitstream feature that is valid but not implemented; names the field and its value.
  case unsupportedBitstream(where: String, reason: String)
  /// The key id or constant IV is not 16 bytes.
  case invalidKeying(String)
  /// Another error, with the track and sample it happened in.
  indirect case inSample(track: UInt32, sample: Int, MediaFormatError)

  public var description: String {
    switch self {
    case .malformedBox(let reason): "malformed ISO-BMFF: \(reason)"
    case .unsupportedBox(let reason): "not supported by cbcs protection: \(reason)"
    case .malformedBitstream(let place, let reason): "\(place): \(reason)"
    case .unsupportedBitstream(let place, let reason): "\(place): \(reason); not supported by cbcs protection"
    case .invalidKeying(let reason): reason
    case .inSample(let track, let sample, let error): "track \(track), sample \(sample): \(error)"
    }
  }
}
