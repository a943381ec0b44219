/// Why an asset could not be made. Each case names the file or folder at fault.
public enum PackError: Error, CustomStringConvertible, Equatable {
  /// The input cannot be used: missing, unreadable, not media, no video stream.
  case input(path: String, reason: String)
  /// The output cannot be written.
  case output(path: String, reason: String)
  /// Decoding, encoding or muxing failed partway.
  case media(path: String, reason: String)
  case crypto(String)

  public var description: String {
    switch self {
    case .input(let path, let reason): "\(path): \(reason)"
    case .output(let path, let reason): "\(path): \(reason)"
    case .media(let path, let reason): "\(path): \(reason)"
    case .crypto(let reason): "encryption failed: \(reason)"
    }
  }
}
