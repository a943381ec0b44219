/// Why a SAMPLE-AES cipher refused its key, IV or bytes. (Streams whose framing
/// cannot be read fail with HLSPackCore's `FramingError`.)
public enum SampleAESError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The key is not 16 bytes.
  case keyLength(Int)
  /// The IV is not 16 bytes.
  case ivLength(Int)
  /// A `cbcs` run is not whole blocks inside the bytes it protects.
  case runOutside(Range<Int>, count: Int)

  public var description: String {
    switch self {
    case .keyLength(let n): "SAMPLE-AES key is \(n) bytes, expected 16"
    case .ivLength(let n): "SAMPLE-AES IV is \(n) bytes, expected 16"
    case .runOutside(let run, let count): "cbcs run \(run) is not whole blocks inside \(count) bytes"
    }
  }
}
