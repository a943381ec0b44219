/// Why a SAMPLE-AES cipher refused its key or IV. (Streams whose framing
/// cannot be read fail with HLSPackCore's `FramingError`.)
public enum SampleAESError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The key is not 16 bytes.
  case keyLength(Int)
  /// The IV is not 16 bytes.
  case ivLength(Int)

  public var description: String {
    switch self {
    case .keyLength(let n): "SAMPLE-AES key is \(n) bytes, expected 16"
    case .ivLength(let n): "SAMPLE-AES IV is \(n) bytes, expected 16"
    }
  }
}
