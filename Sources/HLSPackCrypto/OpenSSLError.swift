internal import COpenSSL

/// A failed libcrypto call, with OpenSSL's own reason text.
public struct OpenSSLError: Error, CustomStringConvertible {
  public var call: String
  public var reason: String

  public var description: String { "\(call) failed: \(reason)" }

  /// Drains OpenSSL's error queue for this thread into one error.
  static func last(_ call: String) -> OpenSSLError {
    var reasons: [String] = []
    while case let code = ERR_get_error(), code != 0 {
      var buffer = [CChar](repeating: 0, count: 256)
      ERR_error_string_n(code, &buffer, buffer.count)
      reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    return OpenSSLError(call: call, reason: reasons.isEmpty ? "unknown error" : reasons.joined(separator: "; "))
  }
}

@inline(__always)
func check(_ result: Int32, _ call: @autoclosure () -> String) throws {
  if result != 1 { throw OpenSSLError.last(call()) }
}
